import assert from "node:assert/strict";
import { GraphLog, HELPER, LEAD, OTHER } from "./_graph_for_test.ts";
import {
  cancelRefusal,
  claimRefusal,
  completeRefusal,
  createRefusal,
  updateRefusal,
} from "./task_rules.ts";

function log(): GraphLog {
  return new GraphLog().create(1).create(2, [1]).create(3, [1]).create(4, [2, 3]);
}

Deno.test("a task is not created with an unknown or a cancelled dependency, or no subject", () => {
  const graph = log().add(LEAD, "task.cancelled", { id: 3 }).graph;
  assert.equal(createRefusal(graph, { subject: "New", blockedBy: [1, 2] }), undefined);
  assert.equal(
    createRefusal(graph, { subject: "New", blockedBy: [1, 7, 9] }),
    "Cannot create the task: blockedBy names #7 and #9, which do not exist (tasks are 1–4)",
  );
  assert.equal(
    createRefusal(graph, { subject: "New", blockedBy: [3] }),
    "Cannot create the task: blockedBy names #3, which was cancelled and will never be completed",
  );
  assert.equal(
    createRefusal(graph, { subject: "  ", blockedBy: [] }),
    "Cannot create the task: its subject is empty",
  );
  assert.match(
    createRefusal(new GraphLog().graph, { subject: "x", blockedBy: [1] }) ?? "",
    /#1, which does not exist \(there are no tasks yet\)$/,
  );
});

Deno.test("a claim is refused for a blocked, owned, completed, cancelled or unknown task", () => {
  const l = log();
  assert.equal(claimRefusal(l.graph, 1, LEAD), undefined);
  assert.equal(
    claimRefusal(l.graph, 4, LEAD),
    "Cannot claim task 4: it is blocked by #2 (pending), #3 (pending); it can be claimed once " +
      "those are completed",
  );
  l.claim(1, OTHER);
  assert.equal(
    claimRefusal(l.graph, 1, LEAD),
    'Cannot claim task 1: it is already claimed by agent "lead" of session s2-bbbbb',
  );
  assert.equal(
    claimRefusal(l.graph, 1, OTHER),
    "Cannot claim task 1: you already own it (you claimed it before); complete it when it is done",
  );
  assert.equal(
    claimRefusal(l.graph, 2, HELPER),
    'Cannot claim task 2: it is blocked by #1 (in progress, claimed by agent "lead" of session ' +
      "s2-bbbbb); it can be claimed once that task is completed",
  );
  l.complete(1, OTHER);
  assert.equal(claimRefusal(l.graph, 1, LEAD), "Cannot claim task 1: it is already completed");
  l.add(LEAD, "task.cancelled", { id: 2, reason: "merged into 3" });
  assert.equal(
    claimRefusal(l.graph, 2, LEAD),
    "Cannot claim task 2: it was cancelled (merged into 3)",
  );
  assert.equal(
    claimRefusal(l.graph, 12, LEAD),
    "Cannot claim task 12: it does not exist (tasks are 1–4)",
  );
});

Deno.test("only the owner may complete a task, and only once it is claimed", () => {
  const l = log();
  assert.equal(
    completeRefusal(l.graph, 1, LEAD),
    "Cannot complete task 1: nobody has claimed it; claim it with claim_task first, then " +
      "complete it",
  );
  l.claim(1, HELPER);
  assert.equal(
    completeRefusal(l.graph, 1, LEAD),
    'Cannot complete task 1: it is owned by agent "helper" of this session, and only its owner ' +
      "can complete it",
  );
  assert.equal(completeRefusal(l.graph, 1, HELPER), undefined);
  l.complete(1, HELPER);
  assert.equal(
    completeRefusal(l.graph, 1, HELPER),
    "Cannot complete task 1: it is already completed",
  );
});

Deno.test("an update is refused for a cycle, naming it, and for bad dependencies", () => {
  const graph = log().graph;
  assert.equal(
    updateRefusal(graph, { id: 1, addBlockedBy: [4] }),
    "Cannot update task 1: waiting for #4 would make a cycle, since #4 already waits for #1 " +
      "(#1 waits for #4 waits for #2 waits for #1)",
  );
  assert.equal(
    updateRefusal(graph, { id: 2, addBlockedBy: [2] }),
    "Cannot update task 2: a task cannot wait for itself",
  );
  assert.equal(
    updateRefusal(graph, { id: 4, addBlockedBy: [2] }),
    "Cannot update task 4: it already waits for #2",
  );
  assert.equal(
    updateRefusal(graph, { id: 4, addBlockedBy: [8] }),
    "Cannot update task 4: addBlockedBy names #8, which does not exist (tasks are 1–4)",
  );
  assert.equal(
    updateRefusal(graph, { id: 4, removeBlockedBy: [1] }),
    "Cannot update task 4: it does not wait for #1 (it waits for #2 and #3)",
  );
  assert.equal(updateRefusal(graph, { id: 4, removeBlockedBy: [2], addBlockedBy: [1] }), undefined);
  assert.equal(
    updateRefusal(graph, { id: 9, subject: "x" }),
    "Cannot update task 9: it does " +
      "not exist (tasks are 1–4)",
  );
  const claimed = log().claim(1).graph;
  assert.equal(
    updateRefusal(claimed, { id: 1, addBlockedBy: [2] }),
    "Cannot update task 1: it is in progress, and its dependencies can only change while it is " +
      "pending",
  );
  assert.equal(updateRefusal(claimed, { id: 1, description: "more" }), undefined);
});

Deno.test("a completed or cancelled task cannot be cancelled", () => {
  const l = log().claim(1).complete(1);
  assert.equal(cancelRefusal(l.graph, 2), undefined);
  assert.equal(cancelRefusal(l.graph, 1), "Cannot cancel task 1: it is already completed");
  l.add(LEAD, "task.cancelled", { id: 2 });
  assert.equal(cancelRefusal(l.graph, 2), "Cannot cancel task 2: it is already cancelled");
});
