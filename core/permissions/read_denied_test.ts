import assert from "node:assert/strict";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { foldEvents } from "../state/state.ts";
import { CONTEXT, rulesOf } from "./_rules_for_test.ts";
import type { Projection } from "../state/projection.ts";
import { loadPathMatcher } from "./path_match.ts";
import { permissionsProjection } from "./permissions_projection.ts";
import { readDeniedJudge, readDenyJudgeOf, readDenyRule } from "./read_denied.ts";

const ROOT = CONTEXT.cwd;

Deno.test("a Read deny rule covers the file it names, and what is under a directory it names", async () => {
  await loadPathMatcher();
  const rules = rulesOf({ deny: ["Read(./.env)", "Read(./secrets/**)"] });
  const covered = (file: string) => readDenyRule("grep", file, rules, CONTEXT)?.text;
  assert.equal(covered(`${ROOT}/.env`), "Read(./.env)");
  assert.equal(covered(`${ROOT}/secrets/deep/key.pem`), "Read(./secrets/**)");
  assert.equal(covered(`${ROOT}/src/.env`), undefined);
  assert.equal(covered(`${ROOT}/secrets.txt`), undefined);
});

Deno.test("a tool's own deny rule covers only that tool's search; a bare Read deny covers every file", async () => {
  await loadPathMatcher();
  const own = rulesOf({ deny: ["Grep(./logs/**)"] });
  assert.equal(readDenyRule("grep", `${ROOT}/logs/a.log`, own, CONTEXT)?.text, "Grep(./logs/**)");
  assert.equal(readDenyRule("glob", `${ROOT}/logs/a.log`, own, CONTEXT), undefined);
  const all = rulesOf({ deny: ["Read"] });
  assert.equal(readDenyRule("glob", `${ROOT}/anything`, all, CONTEXT)?.text, "Read");
});

Deno.test("the judge is null without deny rules that can cover a file", async () => {
  assert.equal(await readDenyJudgeOf("grep", rulesOf({}), CONTEXT), null);
  const others = rulesOf({ deny: ["Bash(rm *)", "Edit(./src/**)", "Glob(./x)"], allow: ["Read"] });
  assert.equal(await readDenyJudgeOf("grep", others, CONTEXT), null);
});

Deno.test("the judge denies a file when any of its names is covered: relative to the working directory or absolute", async () => {
  const judge = await readDenyJudgeOf(
    "glob",
    rulesOf({ deny: ["Read(./.env)", "Read(//etc/shadow)"] }),
    CONTEXT,
  );
  assert.ok(judge);
  assert.equal(judge(["notes", `${ROOT}/notes`]), false);
  // A symlink `notes -> .env`: its link name is allowed, its real path is not.
  assert.equal(judge(["notes", `${ROOT}/.env`]), true);
  assert.equal(judge(["notes", ".env"]), true);
  assert.equal(judge(["x", "/etc/shadow"]), true);
});

Deno.test("a session's judge comes from its recorded settings and flags", async () => {
  const e = eventFactory();
  const settings = {
    sources: [{
      scope: "project" as const,
      path: `${ROOT}/.claude/settings.json`,
      text: JSON.stringify({ permissions: { deny: ["Read(./.env)"] } }),
    }],
    flags: { disallowedTools: ["Read(./secrets/**)"] },
    home: CONTEXT.home,
    interactive: false,
    env: {},
  };
  const fold = (data: ReturnType<typeof startedData>) =>
    foldEvents([e("session.started", data)], [permissionsProjection as Projection]);
  const state = fold(startedData({ workspace: ROOT, settings }));
  const judge = await readDeniedJudge(state, "s1", "grep");
  assert.ok(judge);
  assert.equal(judge([".env"]), true);
  assert.equal(judge(["secrets/a/b"]), true);
  assert.equal(judge(["src/main.ts"]), false);
  const unrecorded = fold(startedData({ workspace: ROOT }));
  assert.equal(await readDeniedJudge(unrecorded, "s1", "grep"), null);
});
