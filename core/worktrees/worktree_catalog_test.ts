import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import { emptyWorktrees, evolveWorktrees, type WorktreeCatalog } from "./worktree_catalog.ts";

let seq = 0;
function event(type: string, data: unknown, agent = "lead"): Envelope {
  seq += 1;
  return { v: 2, seq, ts: "2026-01-01T00:00:00Z", type, session: "s1", agent, data } as Envelope;
}

function created(name: string, taskId?: number): Envelope {
  return event("worktree.created", {
    name,
    path: `.claude/worktrees/${name}`,
    branch: `worktree-${name}`,
    base: "HEAD",
    baseCommit: "abc",
    ...(taskId === undefined ? {} : { taskId }),
  });
}

function fold(events: Envelope[]): WorktreeCatalog {
  return events.reduce(evolveWorktrees, emptyWorktrees());
}

Deno.test("worktrees are folded as made, kept and removed, each bound to its task", () => {
  const slice = fold([
    created("a", 1),
    created("b"),
    event("worktree.kept", { name: "b" }),
    event("worktree.removed", { name: "a" }),
  ]);
  assert.deepEqual(slice.order, ["a", "b"]);
  assert.equal(slice.byName.a?.state, "removed");
  assert.equal(slice.byName.a?.task, 1);
  assert.equal(slice.byName.b?.state, "kept");
  assert.equal(slice.byName.b?.task, null);
  assert.deepEqual(slice.byName.b?.createdBy, { session: "s1", agent: "lead" });
});

Deno.test("a name made again over a live worktree does not count; after its removal it does", () => {
  const twice = fold([created("a", 1), created("a", 2)]);
  assert.equal(twice.byName.a?.task, 1);
  const again = fold([
    created("a", 1),
    created("b"),
    event("worktree.removed", { name: "a" }),
    created("a", 3),
  ]);
  assert.equal(again.byName.a?.task, 3);
  assert.equal(again.byName.a?.state, "active");
  assert.deepEqual(again.order, ["b", "a"]);
});

Deno.test("keeping or removing a worktree that is not there changes nothing", () => {
  const slice = fold([
    event("worktree.kept", { name: "x" }),
    event("worktree.removed", { name: "y" }),
  ]);
  assert.deepEqual(slice, emptyWorktrees());
  const removed = fold([
    created("a"),
    event("worktree.removed", { name: "a" }),
    event("worktree.kept", { name: "a" }),
  ]);
  assert.equal(removed.byName.a?.state, "removed");
});
