import assert from "node:assert/strict";
import { createGrepTool } from "./grep.ts";
import { callContext, readPid, tempDir, waitForDeath } from "../../testing/tool_helpers.ts";

const files = {
  ".gitignore": "dist/\n",
  "src/a.ts": "import x from 'x';\nconst TODO = 1;\nexport const a = 2;\n",
  "src/b.ts": "// todo: later\nexport const b = 3;\n",
  "src/c.md": "TODO write docs\n",
  "src/gen/.gitignore": "*.gen.ts\n",
  "src/gen/x.gen.ts": "TODO generated\n",
  "src/gen/y.ts": "TODO kept\n",
  "dist/out.js": "TODO built\n",
  ".git/TODO": "TODO git\n",
  ".rein/events.jsonl": '{"TODO":1}\n',
  "image.bin": new Uint8Array([84, 79, 68, 79, 0, 1]),
};

/** The suite runs against both engines: ripgrep, and JavaScript's in a Worker. */
const engines = [["ripgrep", "rg"], ["JavaScript", null]] as const;

for (const [engine, ripgrep] of engines) {
  Deno.test(`grep (${engine}) lists matching files by default, honouring nested .gitignore files`, async () => {
    await using dir = await tempDir();
    await dir.write(files);
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    assert.deepEqual(await tool.run({ pattern: "TODO" }, callContext()), {
      content: "src/a.ts\nsrc/c.md\nsrc/gen/y.ts",
      isError: false,
    });
  });

  Deno.test(`grep (${engine}) shows path:line:text in content mode`, async () => {
    await using dir = await tempDir();
    await dir.write(files);
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    const result = await tool.run(
      { pattern: "export const \\w", output_mode: "content" },
      callContext(),
    );
    assert.equal(result.content, "src/a.ts:3:export const a = 2;\nsrc/b.ts:2:export const b = 3;");
  });

  Deno.test(`grep (${engine}) shows context lines and separates groups with --`, async () => {
    await using dir = await tempDir();
    await dir.write({ "n.txt": "1\n2\nhit 3\n4\n5\n6\n7\nhit 8\n9\n", "m.txt": "hit\n" });
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    const result = await tool.run(
      { pattern: "hit", output_mode: "content", context: 1 },
      callContext(),
    );
    assert.equal(
      result.content,
      [
        "m.txt:1:hit",
        "--",
        "n.txt-2-2",
        "n.txt:3:hit 3",
        "n.txt-4-4",
        "--",
        "n.txt-7-7",
        "n.txt:8:hit 8",
        "n.txt-9-9",
      ]
        .join("\n"),
    );
  });

  Deno.test(`grep (${engine}) counts matching lines per file in count mode`, async () => {
    await using dir = await tempDir();
    await dir.write({ "a.txt": "x\nx\ny\n", "b.txt": "x\n" });
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    assert.equal(
      (await tool.run({ pattern: "x", output_mode: "count" }, callContext())).content,
      "a.txt:2\nb.txt:1",
    );
  });

  Deno.test(`grep (${engine}) matches case-insensitively with ignore_case`, async () => {
    await using dir = await tempDir();
    await dir.write(files);
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    assert.equal(
      (await tool.run({ pattern: "todo", ignore_case: true, path: "src" }, callContext())).content,
      "src/a.ts\nsrc/b.ts\nsrc/c.md\nsrc/gen/y.ts",
    );
  });

  Deno.test(`grep (${engine}) filters files by a name glob or a path glob`, async () => {
    await using dir = await tempDir();
    await dir.write(files);
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    assert.equal(
      (await tool.run({ pattern: "TODO", glob: "*.md" }, callContext())).content,
      "src/c.md",
    );
    assert.equal(
      (await tool.run({ pattern: "TODO", glob: "gen/**", path: "src" }, callContext())).content,
      "src/gen/y.ts",
    );
  });

  Deno.test(`grep (${engine}) searches a single file given as path`, async () => {
    await using dir = await tempDir();
    await dir.write(files);
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    const result = await tool.run(
      { pattern: "TODO", path: "src/a.ts", output_mode: "content" },
      callContext(),
    );
    assert.equal(result.content, "src/a.ts:2:const TODO = 1;");
  });

  Deno.test(`grep (${engine}) reports an invalid regular expression`, async () => {
    await using dir = await tempDir();
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    assert.deepEqual(await tool.run({ pattern: "foo(" }, callContext()), {
      content: 'Invalid regular expression "foo(": Unterminated group',
      isError: true,
    });
  });

  Deno.test(`grep (${engine}) accepts unicode-only and legacy-only regular expression syntax`, async () => {
    await using dir = await tempDir();
    await dir.write({ "a.txt": "Grüße\n", "b.txt": "a-b\n" });
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    assert.equal((await tool.run({ pattern: "^\\p{L}+$" }, callContext())).content, "a.txt");
    assert.equal((await tool.run({ pattern: "a\\-b" }, callContext())).content, "b.txt");
  });

  Deno.test(`grep (${engine}) says when nothing matches`, async () => {
    await using dir = await tempDir();
    await dir.write(files);
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    assert.deepEqual(await tool.run({ pattern: "nowhere", path: "src" }, callContext()), {
      content: "No matches for /nowhere/ in src",
      isError: false,
    });
  });

  Deno.test(`grep (${engine}) stops at head_limit and says how many were left out`, async () => {
    await using dir = await tempDir();
    await dir.write({ "a.txt": "hit\n".repeat(10) });
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    const result = await tool.run(
      { pattern: "hit", output_mode: "content", head_limit: 3 },
      callContext(),
    );
    assert.equal(
      result.content,
      "a.txt:1:hit\na.txt:2:hit\na.txt:3:hit\n[… 7 more lines not shown (head_limit 3)]",
    );
  });

  Deno.test(`grep (${engine}) caps large output with a note`, async () => {
    await using dir = await tempDir();
    await dir.write({ "big.txt": `${"match this line\n".repeat(5000)}` });
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    const result = await tool.run({ pattern: "match", output_mode: "content" }, callContext());
    assert.ok(result.content.length < 31_000);
    assert.match(
      result.content,
      /\n\[… [\d,]+ more lines not shown to keep the output under 30,000 characters; narrow the pattern, path or glob, or use head_limit\]$/,
    );
  });

  Deno.test(`grep (${engine}) refuses a path outside the workspace`, async () => {
    await using dir = await tempDir();
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    assert.deepEqual(await tool.run({ pattern: "x", path: "/etc" }, callContext()), {
      content: `Path "/etc" is outside the workspace ${dir.path}`,
      isError: true,
    });
  });

  Deno.test(`grep (${engine}) searches an ignored directory named explicitly`, async () => {
    await using dir = await tempDir();
    await dir.write(files);
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    assert.equal(
      (await tool.run({ pattern: "TODO", path: "dist" }, callContext())).content,
      "dist/out.js",
    );
  });

  Deno.test(`grep (${engine}) skips symlinks that lead outside the workspace but follows those inside`, async () => {
    await using dir = await tempDir();
    await using outside = await tempDir();
    await outside.write({ "secret.txt": "needle\n" });
    await dir.write({ "real.txt": "needle\n" });
    await Deno.symlink(`${outside.path}/secret.txt`, `${dir.path}/leak.txt`);
    await Deno.symlink(outside.path, `${dir.path}/leakdir`);
    await Deno.symlink(`${dir.path}/real.txt`, `${dir.path}/alias.txt`);
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    assert.equal(
      (await tool.run({ pattern: "needle" }, callContext())).content,
      "alias.txt\nreal.txt",
    );
  });

  Deno.test(`grep (${engine}) says when its path does not exist`, async () => {
    await using dir = await tempDir();
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    assert.deepEqual(await tool.run({ pattern: "x", path: "nope" }, callContext()), {
      content: "Path not found: nope",
      isError: true,
    });
  });

  Deno.test(`grep (${engine}) accepts look-behind, which only JavaScript's engine has`, async () => {
    await using dir = await tempDir();
    await dir.write({ "a.txt": "ab\n", "b.txt": "cb\n" });
    const tool = createGrepTool({ workspace: dir.path, ripgrep });
    assert.equal((await tool.run({ pattern: "(?<=a)b" }, callContext())).content, "a.txt");
  });
}

Deno.test("grep (ripgrep) answers a catastrophic pattern in linear time", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.txt": `${"a".repeat(5000)}!\n`, "b.txt": "aaa\n" });
  const grep = createGrepTool({ workspace: dir.path, ripgrep: "rg" });
  for (const pattern of ["(a+)+$", "(a|a)+$", "(a*)*b"]) {
    const started = Date.now();
    const result = await grep.run({ pattern }, callContext());
    assert.ok(Date.now() - started < 5000, pattern);
    assert.equal(result.content, pattern === "(a*)*b" ? `No matches for /${pattern}/` : "b.txt");
  }
});

Deno.test("grep (ripgrep) takes ripgrep-only syntax such as inline flags", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.txt": "ToDo\n" });
  const grep = createGrepTool({ workspace: dir.path, ripgrep: "rg" });
  assert.equal((await grep.run({ pattern: "(?i)todo" }, callContext())).content, "a.txt");
});

Deno.test("grep (JavaScript) stops a catastrophic match at its time limit", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.txt": `${"a".repeat(40)}!\n` });
  const grep = createGrepTool({ workspace: dir.path, ripgrep: null, timeoutMs: 300 });
  const started = Date.now();
  const result = await grep.run({ pattern: "(a+)+$" }, callContext());
  assert.ok(Date.now() - started < 3000);
  assert.deepEqual(result, {
    content: "Search stopped after 300 ms without finishing (0 files searched): the pattern may " +
      "be too slow or the tree too large; narrow path or glob, or simplify the pattern",
    isError: true,
  });
});

Deno.test("grep (JavaScript) stops a catastrophic match when the turn is cancelled", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.txt": `${"a".repeat(40)}!\n` });
  const grep = createGrepTool({ workspace: dir.path, ripgrep: null });
  const controller = new AbortController();
  const started = Date.now();
  setTimeout(() => controller.abort(), 200);
  const result = await grep.run({ pattern: "(a|a)+$" }, callContext(controller.signal));
  assert.ok(Date.now() - started < 3000);
  assert.deepEqual(result, { content: "Search cancelled", isError: true, cancelled: true });
});

Deno.test({
  name: "grep kills ripgrep when the turn is cancelled or the time limit passes",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using dir = await tempDir();
    await dir.write({ "a.txt": "x\n" });
    const pidFile = `${dir.path}/rg.pid`;
    const fakeRipgrep = `${dir.path}/slow-rg`;
    await Deno.writeTextFile(fakeRipgrep, `#!/bin/sh\necho $$ > ${pidFile}\nexec /bin/sleep 60\n`);
    await Deno.chmod(fakeRipgrep, 0o755);

    const controller = new AbortController();
    const grep = createGrepTool({ workspace: dir.path, ripgrep: fakeRipgrep });
    const running = grep.run({ pattern: "x" }, callContext(controller.signal));
    const pid = await readPid(pidFile);
    controller.abort();
    assert.deepEqual(await running, {
      content: "Search cancelled",
      isError: true,
      cancelled: true,
    });
    assert.ok(await waitForDeath(pid), "ripgrep still runs after the cancel");

    await Deno.remove(pidFile);
    const timed = createGrepTool({ workspace: dir.path, ripgrep: fakeRipgrep, timeoutMs: 300 });
    const result = await timed.run({ pattern: "x" }, callContext());
    assert.match(result.content, /^Search stopped after 300 ms without finishing/);
    assert.ok(await waitForDeath(await readPid(pidFile)), "ripgrep still runs after the timeout");
  },
});

/** A judge that denies `.env` and everything under `secrets/`, by relative name. */
const denyEnvAndSecrets = () =>
  Promise.resolve((names: readonly string[]) =>
    names.some((name) => name === ".env" || name.startsWith("secrets/"))
  );

Deno.test("grep does not search files a deny rule covers, in any output mode, nor through a symlink", async () => {
  await using dir = await tempDir();
  await dir.write({
    ".env": "TOKEN=hunter2\n",
    "secrets/deep/key.txt": "TOKEN=nested\n",
    "src/app.ts": "const TOKEN = env();\n",
  });
  await Deno.symlink(".env", `${dir.path}/notes`);
  const tool = createGrepTool({ workspace: dir.path, readDenied: denyEnvAndSecrets });
  const note = "[3 files not searched: Read deny rules cover them]";
  for (const output_mode of ["files_with_matches", "content", "count"] as const) {
    const result = await tool.run({ pattern: "TOKEN", output_mode }, callContext());
    assert.equal(result.isError, false);
    assert.doesNotMatch(result.content, /hunter2|nested|\.env|secrets|notes/);
    assert.ok(result.content.startsWith("src/app.ts"), result.content);
    assert.ok(result.content.endsWith(note), result.content);
  }
  const inside = await tool.run({ pattern: "TOKEN", path: "secrets" }, callContext());
  assert.equal(
    inside.content,
    "No matches for /TOKEN/ in secrets\n[1 file not searched: a Read deny rule covers it]",
  );
  assert.deepEqual(await tool.run({ pattern: "TOKEN", path: "notes" }, callContext()), {
    content: 'Cannot search "notes": a Read deny rule covers the file',
    isError: true,
  });
});

Deno.test("grep judges a directory reached through a symlink by the name it was given too", async () => {
  await using dir = await tempDir();
  await dir.write({ "vault/key.txt": "TOKEN=1\n" });
  await Deno.symlink("vault", `${dir.path}/secrets`);
  const tool = createGrepTool({ workspace: dir.path, readDenied: denyEnvAndSecrets });
  const result = await tool.run({ pattern: "TOKEN", path: "secrets" }, callContext());
  assert.match(result.content, /^No matches .*\n\[1 file not searched/);
});

Deno.test("grep asks for the session's judge of its own tool and searches everything when there is none", async () => {
  await using dir = await tempDir();
  await dir.write({ ".env": "TOKEN=hunter2\n" });
  const asked: string[] = [];
  const tool = createGrepTool({
    workspace: dir.path,
    readDenied: (_state, session, name) => {
      asked.push(`${session} ${name}`);
      return Promise.resolve(null);
    },
  });
  assert.equal((await tool.run({ pattern: "TOKEN" }, callContext())).content, ".env");
  assert.deepEqual(asked, ["s1 grep"]);
});
