import assert from "node:assert/strict";
import { join } from "node:path";
import { createWriteFileTool } from "./write_file.ts";
import { callContext, tempDir } from "../../testing/tool_helpers.ts";
import type { Envelope, PermissionDecided, ReinEvent } from "../../events/event_types.ts";
import { permissionsProjection } from "../permissions/permissions_projection.ts";
import { evolve, initialState } from "../state/state.ts";
import type { ToolCallContext } from "./tool.ts";

Deno.test("write_file creates a file and its parent directories", async () => {
  await using dir = await tempDir();
  const tool = createWriteFileTool({ workspace: dir.path });
  const result = await tool.run({ path: "src/deep/a.ts", content: "one\ntwo\n" }, callContext());
  assert.deepEqual(result, {
    content: "Wrote 2 lines (8 bytes) to new file src/deep/a.ts",
    isError: false,
  });
  assert.equal(await Deno.readTextFile(join(dir.path, "src/deep/a.ts")), "one\ntwo\n");
});

Deno.test("write_file says when it replaced an existing file", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.txt": "old content that is longer" });
  const tool = createWriteFileTool({ workspace: dir.path });
  const result = await tool.run({ path: "a.txt", content: "é" }, callContext());
  assert.deepEqual(result, {
    content: "Wrote 1 line (2 bytes) to a.txt, replacing its previous content",
    isError: false,
  });
  assert.equal(await Deno.readTextFile(join(dir.path, "a.txt")), "é");
});

Deno.test("write_file writes an empty file", async () => {
  await using dir = await tempDir();
  const tool = createWriteFileTool({ workspace: dir.path });
  assert.equal(
    (await tool.run({ path: "empty", content: "" }, callContext())).content,
    "Wrote 0 lines (0 bytes) to new file empty",
  );
});

Deno.test("write_file refuses to replace a directory", async () => {
  await using dir = await tempDir();
  await dir.write({ "src/a.ts": "" });
  const tool = createWriteFileTool({ workspace: dir.path });
  assert.deepEqual(await tool.run({ path: "src", content: "x" }, callContext()), {
    content: 'Cannot write "src": it is a directory',
    isError: true,
  });
});

Deno.test("write_file refuses paths outside the workspace, through symlinks too", async () => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  await Deno.symlink(outside.path, join(dir.path, "out"));
  await Deno.symlink(join(outside.path, "later.txt"), join(dir.path, "dangling.txt"));
  const tool = createWriteFileTool({ workspace: dir.path });
  for (const path of ["../escape.txt", join(outside.path, "x.txt"), "out/x.txt", "dangling.txt"]) {
    const result = await tool.run({ path, content: "pwned" }, callContext());
    assert.equal(result.isError, true, path);
    assert.ok(result.content.startsWith(`Path "${path}" is outside the workspace`), result.content);
  }
  assert.deepEqual(await Array.fromAsync(Deno.readDir(outside.path)), []);
});

Deno.test("write_file is not read-only and is summarized by its path", () => {
  const tool = createWriteFileTool({ workspace: "/tmp" });
  assert.equal(tool.readOnly, false);
  assert.equal(tool.summarize({ path: "a.ts", content: "" }), "a.ts");
});

Deno.test("write_file refuses rein's event log and everything in its directory", async () => {
  await using dir = await tempDir();
  await dir.write({ ".rein/events.jsonl": "history\n" });
  await Deno.symlink(".rein", join(dir.path, "log-link"));
  const tool = createWriteFileTool({
    workspace: dir.path,
    protectedPaths: [join(dir.path, ".rein")],
  });
  const refusals = {
    ".rein/events.jsonl": '".rein/events.jsonl"',
    [join(dir.path, ".rein/events.jsonl")]: '".rein/events.jsonl"',
    "log-link/events.jsonl": '".rein/events.jsonl"',
    ".rein/new.txt": '".rein/new.txt"',
  };
  for (const [path, shown] of Object.entries(refusals)) {
    assert.deepEqual(await tool.run({ path, content: "" }, callContext()), {
      content: `Refusing to write ${shown}: it is in ".rein", rein's event log directory; ` +
        "rein records its own history there",
      isError: true,
    }, path);
  }
  assert.equal(await Deno.readTextFile(join(dir.path, ".rein/events.jsonl")), "history\n");
  assert.deepEqual((await Array.fromAsync(Deno.readDir(join(dir.path, ".rein")))).length, 1);
  assert.equal((await tool.run({ path: ".reins.txt", content: "" }, callContext())).isError, false);
});

Deno.test({
  name: "write_file refuses a named pipe without blocking",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using dir = await tempDir();
    assert.equal(
      (await new Deno.Command("mkfifo", { args: [join(dir.path, "p")] }).output()).code,
      0,
    );
    const tool = createWriteFileTool({ workspace: dir.path });
    assert.deepEqual(await tool.run({ path: "p", content: "x" }, callContext()), {
      content: '"p" is not a regular file (a named pipe); write_file writes files only',
      isError: true,
    });
  },
});

/** A call context whose state records the gate's `decided` for call "toolu_test". */
function judgedContext(workspace: string, decided: PermissionDecided): ToolCallContext {
  const state = initialState([permissionsProjection]);
  const events: ReinEvent[] = [
    {
      type: "session.started",
      data: {
        model: "m",
        workspace,
        startedAt: "2026-11-22T10:00:00.000Z",
        maxTokens: 1,
        platform: "linux",
        settings: { sources: [], flags: {}, home: "/h", interactive: true },
      },
    },
    { type: "permission.decided", data: decided },
  ];
  events.forEach((event, i) => {
    const envelope = { v: 2, seq: i + 1, ts: "", session: "s1", agent: "lead", ...event };
    evolve(state, envelope as Envelope, [permissionsProjection]);
  });
  return { ...callContext(), view: () => state };
}

Deno.test("write_file writes in .claude/ or .git/ only the file the gate asked about for the call", async () => {
  await using dir = await tempDir();
  await dir.write({ ".git/config": "[core]\n", ".claude/settings.json": "{}" });
  const workspace = await Deno.realPath(dir.path);
  const tool = createWriteFileTool({ workspace });
  const alone = await tool.run({ path: ".git/config", content: "evil" }, callContext());
  assert.equal(alone.isError, true);
  assert.match(alone.content, /^Refusing to write "\.git\/config": it lies in \.git\/ \(git's/);
  const allowed = {
    callId: "toolu_test",
    tool: "write_file",
    decision: "allow" as const,
    source: { kind: "user" as const, answer: "yes" as const },
    reason: "The user allowed it once",
    protectedPath: join(workspace, ".git/config"),
  };
  const other = await tool.run(
    { path: ".claude/settings.json", content: "evil" },
    judgedContext(workspace, allowed),
  );
  assert.match(
    other.content,
    /^Refusing to write "\.claude\/settings\.json": it lies in \.claude\//,
  );
  const { protectedPath: _, ...notProtected } = allowed;
  const unjudged = await tool.run(
    { path: ".git/config", content: "evil" },
    judgedContext(workspace, notProtected),
  );
  assert.equal(unjudged.isError, true);
  assert.equal(await Deno.readTextFile(join(workspace, ".git/config")), "[core]\n");
  const judged = await tool.run(
    { path: ".git/config", content: "[core]\n\tbare = false\n" },
    judgedContext(workspace, allowed),
  );
  assert.equal(judged.isError, false, judged.content);
  assert.equal(await Deno.readTextFile(join(workspace, ".git/config")), "[core]\n\tbare = false\n");
});
