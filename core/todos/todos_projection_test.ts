import assert from "node:assert/strict";
import type { Envelope, TodoItem } from "../../events/event_types.ts";
import { eventFactory, respondedData, startedData } from "../../testing/event_factory.ts";
import { foldEvents, sliceOf } from "../state/state.ts";
import { todosOf } from "./todos_of.ts";
import { agentTodosIn, todosProjection } from "./todos_projection.ts";

const PLAN: TodoItem[] = [
  { content: "Read the parser", status: "completed", activeForm: "Reading the parser" },
  { content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
];

function fold(events: Envelope[]) {
  return foldEvents(events, [todosProjection]);
}

Deno.test("a todo list is kept per session and agent, as last written", () => {
  const lead = eventFactory("s1", "lead");
  const helper = eventFactory("s1", "helper");
  const state = fold([
    lead("session.started", startedData()),
    lead("todo.updated", { todos: [{ ...PLAN[1]!, status: "pending" }] }),
    lead("todo.updated", { todos: PLAN }),
    helper("todo.updated", { todos: [PLAN[0]!] }),
  ]);
  assert.deepEqual(todosOf(state, "s1", "lead"), PLAN);
  assert.deepEqual(todosOf(state, "s1", "helper"), [PLAN[0]]);
  assert.deepEqual(todosOf(state, "s1", "nobody"), []);
  assert.deepEqual(todosOf(state, "s2", "lead"), []);
});

Deno.test("the projection counts model rounds and notes the rounds of the last write and reminder", () => {
  const e = eventFactory();
  const state = fold([
    e("session.started", startedData()),
    e("model.responded", respondedData([])),
    e("todo.updated", { todos: PLAN }),
    e("model.responded", respondedData([])),
    e("model.responded", respondedData([])),
    e("reminder.added", { source: "memory", text: "A memory was saved" }),
    e("model.responded", respondedData([])),
    e("reminder.added", { source: "todos", text: "Your todo list…" }),
    e("model.responded", respondedData([])),
  ]);
  const entry = agentTodosIn(sliceOf(state, todosProjection), "s1", "lead");
  assert.equal(entry.rounds, 5);
  assert.equal(entry.writtenAtRound, 1);
  assert.equal(entry.remindedAtRound, 4);
});

Deno.test("a fork starts with the list its source had at the fork's seq", () => {
  const source = eventFactory("s1", "lead");
  const events = [
    source("session.started", startedData()),
    source("todo.updated", { todos: [PLAN[0]!] }),
    source("todo.updated", { todos: PLAN }),
  ];
  const forked = (session: string, seq: number) => ({
    ...eventFactory(session, "lead")(
      "session.started",
      startedData({
        forkedFrom: { session: "s1", seq },
      }),
    ),
    seq: 10 + seq,
  });
  const state = fold([...events, forked("s2", 2), forked("s3", 1)]);
  assert.deepEqual(todosOf(state, "s2", "lead"), [PLAN[0]]);
  assert.deepEqual(todosOf(state, "s3", "lead"), []);
  assert.equal(agentTodosIn(sliceOf(state, todosProjection), "s2", "lead").writtenAtRound, 0);
});

Deno.test("todosOf says when the state was folded without the todos projection", () => {
  const state = foldEvents([eventFactory()("session.started", startedData())]);
  assert.throws(() => todosOf(state, "s1", "lead"), /Projection "todos" is not registered/);
});
