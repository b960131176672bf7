import assert from "node:assert/strict";
import { initialState, type State } from "../state/state.ts";
import { inputJsonSchema, loadToolSchema, validateToolInput } from "../tools/schema.ts";
import type { AnyTool, ToolCallContext, ToolResult } from "../tools/tool.ts";
import { CLAIM_TASK_INPUT_SCHEMA, createClaimTaskTool } from "./claim_task.ts";
import { COMPLETE_TASK_INPUT_SCHEMA, createCompleteTaskTool } from "./complete_task.ts";
import { CREATE_TASK_INPUT_SCHEMA, createCreateTaskTool } from "./create_task.ts";
import { createGetTaskTool, GET_TASK_INPUT_SCHEMA } from "./get_task.ts";
import { createListTasksTool, LIST_TASKS_INPUT_SCHEMA } from "./list_tasks.ts";
import { createUpdateTaskTool, UPDATE_TASK_INPUT_SCHEMA } from "./update_task.ts";
import { GraphLog, LEAD, OTHER } from "./_graph_for_test.ts";
import type { TaskHookData, TaskHookRunner } from "./_task_tool.ts";
import { taskGraphProjection } from "./tasks_projection.ts";

function stateOf(log: GraphLog): State {
  const state = initialState();
  state.catalog.tasks = log.graph;
  return state;
}

function context(state: State, by = LEAD): ToolCallContext {
  return {
    signal: new AbortController().signal,
    ...by,
    callId: "toolu_1",
    cwd: "/",
    view: () => state,
  };
}

/** What the loop records for a result: `decide` run on `state` when the result has one. */
function recorded(result: ToolResult, state: State): ToolResult {
  const { decide, ...rest } = result;
  if (decide === undefined) return rest;
  const { decide: _again, ...decided } = decide(state);
  return decided;
}

function diamond(): GraphLog {
  return new GraphLog().create(1).create(2, [1]).create(3, [1]).create(4, [2, 3]);
}

Deno.test("the task tools ship the JSON Schemas their zod schemas give", async () => {
  const tools: [AnyTool, Record<string, unknown>][] = [
    [createCreateTaskTool(), CREATE_TASK_INPUT_SCHEMA],
    [createListTasksTool(), LIST_TASKS_INPUT_SCHEMA],
    [createGetTaskTool(), GET_TASK_INPUT_SCHEMA],
    [createClaimTaskTool(), CLAIM_TASK_INPUT_SCHEMA],
    [createCompleteTaskTool(), COMPLETE_TASK_INPUT_SCHEMA],
    [createUpdateTaskTool(), UPDATE_TASK_INPUT_SCHEMA],
  ];
  for (const [tool, schema] of tools) {
    assert.deepEqual(inputJsonSchema(await loadToolSchema(tool)), schema, tool.name);
  }
  assert.deepEqual(await validateToolInput(createClaimTaskTool(), { task_id: 1.5 }), {
    ok: false,
    message: 'Invalid input for claim_task: "task_id" must be an integer',
  });
});

Deno.test("create_task takes the next number as the log has it under the lock", async () => {
  const seen = stateOf(diamond());
  const result = await createCreateTaskTool().run(
    { subject: "Ship it", description: "Tag and push", blockedBy: [4, 4, 1] },
    context(seen),
  );
  assert.equal(
    result.content,
    "Created task 5: Ship it (waits for #4 and #1). It is blocked by #4 (pending), #1 (pending)",
  );
  // Another process created task 5 meanwhile: the call gets 6.
  const moved = stateOf(diamond().create(5));
  assert.deepEqual(recorded(result, moved), {
    content: "Created task 6: Ship it (waits for #4 and #1). It is blocked by #4 (pending), " +
      "#1 (pending)",
    events: [{
      type: "task.created",
      data: { id: 6, subject: "Ship it", description: "Tag and push", blockedBy: [4, 1] },
    }],
  });
});

Deno.test("create_task refuses an unknown dependency and records nothing", async () => {
  const result = await createCreateTaskTool().run(
    { subject: "x", blockedBy: [9] },
    context(stateOf(diamond())),
  );
  assert.deepEqual(result, {
    content: "Cannot create the task: blockedBy names #9, which does not exist (tasks are 1–4)",
    isError: true,
  });
});

/** A hook runner that answers every call with `block` (or lets it), counting its calls. */
function hooksAnswering(block?: string): TaskHookRunner & { calls: TaskHookData[] } {
  const calls: TaskHookData[] = [];
  const runner = (_call: unknown, data: TaskHookData) => {
    calls.push(data);
    const run = {
      hookEvent: data.event,
      callId: "toolu_1",
      matcher: "",
      command: "check.sh",
      exitCode: block === undefined ? 0 : 2,
      stdout: "",
      stderr: block ?? "",
      durationMs: 3,
      ending: "exited" as const,
      decision: block === undefined ? "no decision" : `block: ${block}`,
    };
    return Promise.resolve(block === undefined ? { runs: [run] } : { runs: [run], block });
  };
  return Object.assign(runner, { calls });
}

Deno.test("a TaskCreated hook that blocks refuses the task with its reason, its run recorded", async () => {
  const hooks = hooksAnswering("Subjects must name a ticket");
  const result = await createCreateTaskTool(hooks).run(
    { subject: "Fix it", description: "Soon" },
    context(stateOf(diamond())),
  );
  assert.deepEqual(hooks.calls, [{
    event: "TaskCreated",
    taskId: "5",
    subject: "Fix it",
    description: "Soon",
  }]);
  assert.equal(result.isError, true);
  assert.equal(
    result.content,
    "Task not created: a TaskCreated hook blocked it: Subjects must name a ticket",
  );
  assert.deepEqual(result.events?.map((e) => e.type), ["hook.ran"]);
  assert.equal(result.decide, undefined);
});

Deno.test("a task whose TaskCreated hooks ran for a number taken meanwhile is not created", async () => {
  const result = await createCreateTaskTool(hooksAnswering()).run(
    { subject: "Fix it" },
    context(stateOf(diamond())),
  );
  assert.deepEqual(result.events?.map((e) => e.type), ["hook.ran", "task.created"]);
  const decided = recorded(result, stateOf(diamond().create(5)));
  assert.equal(
    decided.content,
    "Task not created: while the TaskCreated hooks ran for it as task 5, another agent created " +
      "task 5. Call create_task again",
  );
  assert.deepEqual(decided.events?.map((e) => e.type), ["hook.ran"]);
});

Deno.test("of two claims of one task, the one decided second is told who owns it", async () => {
  const state = stateOf(diamond());
  const mine = await createClaimTaskTool().run({ task_id: 1 }, context(state));
  assert.equal(
    mine.content,
    "Claimed task 1: Task 1. It is yours and in progress; call complete_task when it is done",
  );
  const theirs = stateOf(diamond().claim(1, OTHER));
  assert.deepEqual(recorded(mine, theirs), {
    content: 'Cannot claim task 1: it is already claimed by agent "lead" of session s2-bbbbb',
    isError: true,
  });
  assert.deepEqual(recorded(mine, state).events, [{ type: "task.claimed", data: { id: 1 } }]);
});

Deno.test("complete_task says what the completion made ready; TaskCompleted hooks can keep it open", async () => {
  const state = stateOf(diamond().claim(1));
  const done = await createCompleteTaskTool().run({ task_id: 1 }, context(state));
  assert.deepEqual(recorded(done, state), {
    content: "Completed task 1: Task 1. Now ready to claim: #2 (Task 2), #3 (Task 3)",
    events: [{ type: "task.completed", data: { id: 1 } }],
  });
  const hooks = hooksAnswering("Tests fail: 3 failures in parser_test.ts");
  const kept = await createCompleteTaskTool(hooks).run({ task_id: 1 }, context(state));
  assert.deepEqual(hooks.calls, [{
    event: "TaskCompleted",
    taskId: "1",
    subject: "Task 1",
    description: "",
  }]);
  assert.equal(
    kept.content,
    "Task 1 not completed: a TaskCompleted hook blocked it: Tests fail: 3 failures in " +
      "parser_test.ts",
  );
  const notMine = await createCompleteTaskTool(hooks).run({ task_id: 1 }, context(state, OTHER));
  assert.match(notMine.content, /^Cannot complete task 1: it is owned by agent "lead" of session/);
  assert.equal(hooks.calls.length, 1, "no hook runs for a completion that is refused");
});

Deno.test("update_task refuses a cycle, changes dependencies, and cancels naming who waits", async () => {
  const state = stateOf(diamond().create(5));
  const tool = createUpdateTaskTool();
  const cycle = await tool.run({ task_id: 1, addBlockedBy: [4] }, context(state));
  assert.equal(cycle.isError, true);
  assert.match(cycle.content, /would make a cycle, since #4 already waits for #1/);
  const moved = await tool.run(
    { task_id: 4, removeBlockedBy: [3], addBlockedBy: [5], description: "Both" },
    context(state),
  );
  assert.deepEqual(recorded(moved, state), {
    content: "Updated task 4 (Task 4): description replaced; now also waits for #5; no longer " +
      "waits for #3. It is blocked by #2 (pending), #5 (pending)",
    events: [{
      type: "task.updated",
      data: { id: 4, description: "Both", addBlockedBy: [5], removeBlockedBy: [3] },
    }],
  });
  const cancelled = await tool.run(
    { task_id: 2, cancel: true, reason: "not needed" },
    context(state),
  );
  assert.deepEqual(recorded(cancelled, state), {
    content: "Cancelled task 2 (Task 2). Still waiting for it: #4; remove the dependency with " +
      "update_task (removeBlockedBy) or cancel them",
    events: [{ type: "task.cancelled", data: { id: 2, reason: "not needed" } }],
  });
  assert.deepEqual(await tool.run({ task_id: 2 }, context(state)), {
    content: "Nothing to change in task 2: give subject, description, addBlockedBy, " +
      "removeBlockedBy, or cancel",
    isError: true,
  });
});

Deno.test("list_tasks and get_task show status, owner and what waits for what", async () => {
  const log = diamond().claim(1).complete(1).claim(2, OTHER);
  log.add(LEAD, "task.cancelled", { id: 3, reason: "merged" });
  const state = stateOf(log);
  const list = await createListTasksTool().run({}, context(state));
  assert.equal(
    list.content,
    [
      "4 tasks (1 completed, 1 in_progress, 1 pending, 1 cancelled):",
      "#1 [completed] Task 1 — completed by you",
      '#2 [in_progress] Task 2 — claimed by agent "lead" of session s2-bbbbb',
      "#3 [cancelled] Task 3 — cancelled: merged",
      '#4 [pending] Task 4 — blocked by #2 (in progress, claimed by agent "lead" of session ' +
      "s2-bbbbb), #3 (cancelled)",
      "No task is ready to claim",
    ].join("\n"),
  );
  const one = await createGetTaskTool().run({ task_id: 4 }, context(state));
  assert.equal(
    one.content,
    [
      "Task 4: Task 4",
      'Status: pending (blocked by #2 (in progress, claimed by agent "lead" of session ' +
      "s2-bbbbb), #3 (cancelled))",
      "Waits for: #2 and #3",
      "Blocks: nothing",
      "Created by: you",
      "Description: none",
    ].join("\n"),
  );
  assert.equal(
    (await createListTasksTool().run({}, context(initialState([], [taskGraphProjection])))).content,
    "No tasks yet. Add one with create_task",
  );
});
