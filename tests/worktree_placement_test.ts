/**
 * Agent placement in worktrees, end to end in a real git repository against the fake model:
 * `enter_worktree` (Claude Code's EnterWorktree) moves the calling agent into a worktree, so its
 * file tools and bash work there and cannot see another worktree (file tools refuse, the bwrap
 * sandbox hides it); `exit_worktree` (ExitWorktree) moves it back, keeping or removing the
 * worktree; a path to an existing worktree is entered; the session replays with --verify.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { toolResultCount } from "../testing/scenarios.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";
import { gitRepo } from "./_worktree_repo.ts";

const KEY = "sk-ant-worktree-placement-0123456789";

const CALLS: [string, string, Record<string, unknown>][] = [
  ["mk", "create_worktree", { name: "b" }],
  ["e1", "enter_worktree", { name: "a" }],
  ["w1", "write_file", { path: "in_a.txt", content: "written in a\n" }],
  ["p1", "bash", { command: "pwd; echo by bash > by_bash.txt" }],
  ["r1", "read_file", { path: "../b/README.md" }],
  ["r2", "read_file", { path: join("WS", ".claude/worktrees/b/README.md") }],
  ["s1", "bash", { command: "ls ../b; cat ../b/README.md" }],
  ["x1", "exit_worktree", { action: "keep" }],
  ["w2", "write_file", { path: "at_root.txt", content: "written at the root\n" }],
  ["e2", "enter_worktree", { path: ".claude/worktrees/b" }],
  ["p2", "bash", { command: "pwd" }],
  ["x2", "exit_worktree", { action: "remove" }],
  ["x3", "exit_worktree", { action: "keep" }],
];

function script(workspace: string): FakeScriptFn {
  return (request) => {
    const call = CALLS[toolResultCount(request.body)];
    if (call === undefined) return message("done");
    const [id, name, input] = call;
    return message([toolUse(id, name, JSON.parse(JSON.stringify(input).replace("WS", workspace)))]);
  };
}

function results(events: readonly Envelope[]): Map<string, { content: string; isError: boolean }> {
  return new Map(
    events.flatMap((e) =>
      e.type === "tool.completed"
        ? [[e.data.callId, { content: e.data.content, isError: e.data.isError === true }]]
        : []
    ),
  );
}

Deno.test("enter_worktree moves the caller into the worktree, apart from the others; exit_worktree moves it back; replayed", async () => {
  await using ws = await tempWorkspace();
  await gitRepo(ws.path);
  {
    await using fake = await startFakeAnthropic({ script: script(ws.path) });
    const run = await runCli([
      "-p",
      "work in worktrees",
      "--permission-mode",
      "bypassPermissions",
      "--workspace",
      ws.path,
    ], { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY } });
    assert.equal(run.code, 0, run.stderr);
  }
  const events = await readLogLines(
    join(ws.path, ".rein", "events.jsonl"),
  ) as unknown as Envelope[];
  const got = results(events);
  const a = join(ws.path, ".claude/worktrees/a");
  // Entered (made first): the agent's file tools and bash work in it.
  assert.equal(got.get("e1")?.isError, false, got.get("e1")?.content ?? "");
  assert.match(got.get("e1")?.content ?? "", /Created and entered worktree "a"/);
  assert.equal(await Deno.readTextFile(join(a, "in_a.txt")), "written in a\n");
  await assert.rejects(Deno.stat(join(ws.path, "in_a.txt")));
  assert.equal(got.get("p1")?.content.trim(), a);
  assert.equal(await Deno.readTextFile(join(a, "by_bash.txt")), "by bash\n");
  // Worktree b cannot be read from a: the file tools refuse, the sandbox hides it.
  for (const id of ["r1", "r2"]) {
    assert.equal(got.get(id)?.isError, true, `${id}: ${got.get(id)?.content}`);
    assert.doesNotMatch(got.get(id)?.content ?? "", /hello/);
  }
  assert.doesNotMatch(got.get("s1")?.content ?? "", /hello/, got.get("s1")?.content ?? "");
  assert.match(got.get("s1")?.content ?? "", /cat: \.\.\/b\/README\.md: No such file/);
  // Back at the root, the worktree kept.
  assert.equal(got.get("x1")?.isError, false, got.get("x1")?.content ?? "");
  assert.match(got.get("x1")?.content ?? "", /Left worktree "a" \(kept, on branch worktree-a\)/);
  assert.equal(await Deno.readTextFile(join(ws.path, "at_root.txt")), "written at the root\n");
  // An existing worktree entered by its path, then left and removed.
  assert.equal(got.get("e2")?.isError, false, got.get("e2")?.content ?? "");
  assert.equal(got.get("p2")?.content.trim(), join(ws.path, ".claude/worktrees/b"));
  assert.equal(got.get("x2")?.isError, false, got.get("x2")?.content ?? "");
  await assert.rejects(Deno.stat(join(ws.path, ".claude/worktrees/b")));
  assert.match(got.get("x3")?.content ?? "", /You are not in a worktree/);
  const moves = events.filter((e) => e.type === "agent.moved").map((e) => e.data);
  assert.deepEqual(moves, [
    { cwd: ".claude/worktrees/a", worktree: "a" },
    { cwd: "" },
    { cwd: ".claude/worktrees/b", worktree: "b" },
    { cwd: "" },
  ]);
  const replay = await runCli(["replay", "--verify", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.doesNotMatch(replay.stdout, /diverges/);
});
