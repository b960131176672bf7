import assert from "node:assert/strict";
import { GraphLog, LEAD } from "./_graph_for_test.ts";
import { blockedTasks, cycleThrough, unblockedBy, unblockedTasks } from "./task_graph.ts";

/** 1 ← 2, 1 ← 3, {2, 3} ← 4, and 5 alone: the course's diamond and a loose task. */
function diamond(): GraphLog {
  return new GraphLog().create(1).create(2, [1]).create(3, [1]).create(4, [2, 3]).create(5);
}

Deno.test("unblocked tasks are the pending, unowned ones whose blockers are all completed", () => {
  const log = diamond();
  assert.deepEqual(unblockedTasks(log.graph).map((t) => t.id), [1, 5]);
  log.claim(1);
  assert.deepEqual(unblockedTasks(log.graph).map((t) => t.id), [5]);
  log.complete(1);
  assert.deepEqual(unblockedTasks(log.graph).map((t) => t.id), [2, 3, 5]);
  log.claim(2).complete(2);
  assert.deepEqual(unblockedTasks(log.graph).map((t) => t.id), [3, 5]);
});

Deno.test("blocked tasks name what they still wait for", () => {
  const log = diamond().claim(1).complete(1).claim(2).complete(2);
  assert.deepEqual(
    blockedTasks(log.graph).map(({ task, waitsFor }) => [task.id, waitsFor.map((t) => t.id)]),
    [[4, [3]]],
  );
});

Deno.test("completing a task unblocks the tasks that waited for it alone", () => {
  const log = diamond();
  assert.deepEqual(unblockedBy(log.graph, 1).map((t) => t.id), [2, 3]);
  log.claim(1).complete(1).claim(2);
  assert.deepEqual(unblockedBy(log.graph, 2).map((t) => t.id), [], "4 still waits for 3");
  log.claim(3, LEAD);
  log.complete(2);
  assert.deepEqual(unblockedBy(log.graph, 3).map((t) => t.id), [4]);
  assert.deepEqual(unblockedBy(log.graph, 99), []);
});

Deno.test("cycleThrough names the cycle a new dependency would close", () => {
  const log = diamond();
  assert.deepEqual(cycleThrough(log.graph, 1, 4), [1, 4, 2, 1]);
  assert.deepEqual(cycleThrough(log.graph, 2, 2), [2, 2]);
  assert.equal(cycleThrough(log.graph, 4, 5), undefined);
  assert.equal(cycleThrough(log.graph, 5, 4), undefined);
});
