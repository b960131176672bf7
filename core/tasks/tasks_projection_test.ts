import assert from "node:assert/strict";
import { GraphLog, HELPER, LEAD, OTHER } from "./_graph_for_test.ts";
import { dependencyPath, taskOf } from "./tasks_projection.ts";

Deno.test("the n-th task created is task n; a task created under a taken or skipped id is ignored", () => {
  const log = new GraphLog().create(1).create(2, [1]).create(2).create(7).create(3, [1, 2, 1, 9]);
  assert.deepEqual(log.graph.tasks.map((t) => t.id), [1, 2, 3]);
  assert.deepEqual(taskOf(log.graph, 3)?.blockedBy, [1, 2], "unknown and repeated ids dropped");
  assert.deepEqual(taskOf(log.graph, 1)?.blocks, [2, 3]);
  assert.deepEqual(taskOf(log.graph, 2)?.blocks, [3]);
  assert.deepEqual(taskOf(log.graph, 3)?.createdBy, LEAD);
});

Deno.test("only the first valid claim of a task counts, in log order", () => {
  const log = new GraphLog().create(1).claim(1, OTHER).claim(1, LEAD).claim(1, OTHER);
  const task = taskOf(log.graph, 1);
  assert.equal(task?.status, "in_progress");
  assert.deepEqual(task?.owner, OTHER);
});

Deno.test("a claim of a blocked task is ignored until its blockers are completed", () => {
  const log = new GraphLog().create(1).create(2, [1]).claim(2);
  assert.equal(taskOf(log.graph, 2)?.status, "pending");
  log.claim(1).complete(1).claim(2, HELPER);
  assert.equal(taskOf(log.graph, 2)?.status, "in_progress");
  assert.deepEqual(taskOf(log.graph, 2)?.owner, HELPER);
});

Deno.test("only the owner completes a task, and only once it is claimed", () => {
  const log = new GraphLog().create(1).complete(1).claim(1).complete(1, OTHER).complete(1, HELPER);
  assert.equal(taskOf(log.graph, 1)?.status, "in_progress");
  log.complete(1);
  assert.equal(taskOf(log.graph, 1)?.status, "completed");
});

Deno.test("an update that would close a cycle is ignored whole; a valid one is applied", () => {
  const log = new GraphLog().create(1).create(2, [1]).create(3, [2]);
  log.add(LEAD, "task.updated", { id: 1, description: "new", addBlockedBy: [3] });
  assert.equal(taskOf(log.graph, 1)?.description, "", "the whole update was ignored");
  assert.deepEqual(taskOf(log.graph, 1)?.blockedBy, []);
  log.add(LEAD, "task.updated", { id: 3, removeBlockedBy: [2], addBlockedBy: [1] });
  assert.deepEqual(taskOf(log.graph, 3)?.blockedBy, [1]);
  assert.deepEqual(taskOf(log.graph, 2)?.blocks, []);
  assert.deepEqual(taskOf(log.graph, 1)?.blocks, [2, 3]);
  log.add(LEAD, "task.updated", { id: 2, addBlockedBy: [2] });
  assert.deepEqual(taskOf(log.graph, 2)?.blockedBy, [1], "a task cannot wait for itself");
});

Deno.test("dependencies change only while a task is pending; its text changes any time", () => {
  const log = new GraphLog().create(1).create(2).claim(2);
  log.add(LEAD, "task.updated", { id: 2, addBlockedBy: [1] });
  assert.deepEqual(taskOf(log.graph, 2)?.blockedBy, []);
  log.add(LEAD, "task.updated", { id: 2, subject: "Renamed" });
  assert.equal(taskOf(log.graph, 2)?.subject, "Renamed");
});

Deno.test("a cancelled task keeps blocking; a completed one cannot be cancelled", () => {
  const log = new GraphLog().create(1).create(2, [1]).create(3).claim(3).complete(3);
  log.add(LEAD, "task.cancelled", { id: 1, reason: "not needed" });
  log.add(LEAD, "task.cancelled", { id: 3 });
  assert.equal(taskOf(log.graph, 1)?.status, "cancelled");
  assert.equal(taskOf(log.graph, 1)?.cancelReason, "not needed");
  assert.equal(taskOf(log.graph, 3)?.status, "completed");
  log.claim(2);
  assert.equal(taskOf(log.graph, 2)?.status, "pending");
});

Deno.test("dependencyPath finds the chain of waits from one task to another", () => {
  const log = new GraphLog().create(1).create(2, [1]).create(3, [2]).create(4, [1]);
  assert.deepEqual(dependencyPath(log.graph, 3, 1), [3, 2, 1]);
  assert.deepEqual(dependencyPath(log.graph, 4, 1), [4, 1]);
  assert.deepEqual(dependencyPath(log.graph, 2, 2), [2]);
  assert.equal(dependencyPath(log.graph, 1, 3), undefined);
  assert.equal(dependencyPath(log.graph, 4, 2), undefined);
});

Deno.test("events of other mechanisms pass through the task fold untouched", () => {
  const log = new GraphLog().create(1);
  const before = structuredClone(log.graph);
  log.add(LEAD, "todo.updated", { todos: [] });
  assert.deepEqual(log.graph, before);
});
