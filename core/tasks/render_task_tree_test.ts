import assert from "node:assert/strict";
import { GraphLog, LEAD, OTHER } from "./_graph_for_test.ts";
import { renderTaskTree } from "./render_task_tree.ts";

Deno.test("the task graph renders as a tree under each task's first blocker", () => {
  const log = new GraphLog()
    .create(1, [], "Set up the schema")
    .create(2, [1], "Write the API")
    .create(3, [1], "Write the UI")
    .create(4, [2, 3], "Ship it")
    .create(5, [], "Write the docs")
    .claim(1).complete(1).claim(2, OTHER);
  log.add(LEAD, "task.cancelled", { id: 5, reason: "later" });
  assert.deepEqual(renderTaskTree(log.graph), [
    "5 tasks: 1 completed, 1 in progress, 2 pending (1 ready), 1 cancelled",
    "☒ #1 Set up the schema — completed by lead@s1-aaaaa",
    "├─ ◐ #2 Write the API — claimed by lead@s2-bbbbb",
    "│  └─ ☐ #4 Ship it — blocked by #2 (in progress, claimed by lead@s2-bbbbb), #3 (pending)",
    "└─ ☐ #3 Write the UI — ready to claim",
    "   └─ #4 Ship it (under #2)",
    "⊘ #5 Write the docs — cancelled: later",
  ]);
  assert.deepEqual(renderTaskTree(new GraphLog().graph), ["No tasks"]);
});

Deno.test("a long chain is drawn no deeper than a few levels, naming each task's parent", () => {
  const log = new GraphLog().create(1);
  for (let id = 2; id <= 40; id++) log.create(id, [id - 1]);
  const lines = renderTaskTree(log.graph);
  assert.equal(lines.length, 41);
  const widest = Math.max(...lines.map((line) => line.length));
  assert.ok(widest < 120, `a line of ${widest} characters`);
  assert.match(lines.at(-1) ?? "", /#40 Task 40 — blocked by #39 \(pending\) \(after #39\)$/);
});
