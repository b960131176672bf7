import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import { plainText } from "../state/rendered_line.ts";
import { evolveWorktrees, worktreeCatalogProjection } from "./worktree_catalog.ts";
import { renderWorktreeEvent, worktreeLines } from "./worktrees_render.ts";

function event(type: string, data: unknown, session = "s1"): Envelope {
  return { v: 2, seq: 1, ts: "t", type, session, agent: "lead", data } as Envelope;
}

const created = event("worktree.created", {
  name: "a",
  path: ".claude/worktrees/a",
  branch: "worktree-a",
  base: "HEAD",
  baseCommit: "abc",
  taskId: 2,
});

Deno.test("each worktree event has its line; another mechanism's has none", () => {
  const lines = (e: Envelope) => renderWorktreeEvent(e)?.map(plainText);
  assert.deepEqual(lines(created), ["⎇ worktree a on worktree-a from HEAD for task #2"]);
  assert.deepEqual(lines(event("worktree.kept", { name: "a" })), ["⎇ worktree a kept"]);
  assert.deepEqual(
    lines(event("worktree.removed", { name: "a", discardedFiles: ["x"], discardedCommits: ["c"] })),
    ["⎇ worktree a removed (2 changes discarded)"],
  );
  assert.deepEqual(
    lines(event("agent.moved", { cwd: ".claude/worktrees/a", worktree: "a" })),
    ["⎇ lead moved into worktree a"],
  );
  assert.deepEqual(lines(event("agent.moved", { cwd: "" })), [
    "⎇ lead moved back to the workspace",
  ]);
  assert.equal(renderWorktreeEvent(event("todo.updated", { todos: [] })), undefined);
});

Deno.test("rein state lists the workspace's worktrees", () => {
  const slice = evolveWorktrees(worktreeCatalogProjection.initial(), created);
  assert.deepEqual(worktreeLines(slice), ["a: active, worktree-a at .claude/worktrees/a, task #2"]);
});
