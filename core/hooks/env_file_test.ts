import assert from "node:assert/strict";
import { parseEnvFile } from "./env_file.ts";

const BASE = { HOME: "/home/me", PATH: "/usr/bin:/bin" };

Deno.test("parseEnvFile reads export lines with shell quoting and expands $NAME from the file, then the hook's environment", () => {
  const text = [
    "# set by the hook",
    "export NODE_ENV=development",
    'export PATH="$HOME/.local/bin:$PATH"',
    "PATH=~/bin:${PATH}",
    "export GREETING='hello $USER'",
    'export QUOTED="a \\"b\\" \\$c"',
    "export A=1 B=two\\ words  # trailing comment",
    "export NODE_ENV",
    "",
  ].join("\n");
  assert.deepEqual(parseEnvFile(text, BASE), {
    env: {
      NODE_ENV: "development",
      PATH: "/home/me/bin:/home/me/.local/bin:/usr/bin:/bin",
      GREETING: "hello $USER",
      QUOTED: 'a "b" $c',
      A: "1",
      B: "two words",
    },
    ignored: [],
  });
});

Deno.test("parseEnvFile leaves out what a shell would run, secrets' names and bash's read-only variables, naming each line", () => {
  const text = [
    "export OK=1",
    "export NOW=$(date)",
    "export T=`id`",
    "echo hi",
    "export X=1; rm -rf /",
    "export DEF=${MISSING:-x}",
    "export GITHUB_TOKEN=abc",
    "export LISTED=1",
    "export SHELLOPTS=x",
    "export OPEN='unterminated",
  ].join("\n");
  const { env, ignored } = parseEnvFile(text, { ...BASE, REIN_SECRET_ENV: "LISTED" });
  assert.deepEqual(env, { OK: "1" });
  assert.deepEqual(ignored.map((line) => line.split(":")[0]), [
    "line 2",
    "line 3",
    "line 4",
    "line 5",
    "line 6",
    "line 7",
    "line 8",
    "line 9",
    "line 10",
  ]);
  assert.match(ignored[5] ?? "", /GITHUB_TOKEN is a secret's name/);
  assert.match(ignored[7] ?? "", /SHELLOPTS is read-only in bash/);
});
