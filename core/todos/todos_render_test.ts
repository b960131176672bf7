import assert from "node:assert/strict";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { plainText } from "../state/rendered_line.ts";
import { foldEvents } from "../state/state.ts";
import { renderTodoEvent, reportTodos } from "./todos_render.ts";
import { todosProjection } from "./todos_projection.ts";

const FIX = { content: "Fix", activeForm: "Fixing", status: "in_progress" } as const;
const TEST = { content: "Test", activeForm: "Testing", status: "pending" } as const;

Deno.test("rein state's todos: a section per agent with a list, the main agent's untitled by name", () => {
  const lead = eventFactory();
  const events = [lead("session.started", startedData()), lead("todo.updated", { todos: [FIX] })];
  const helper = { ...lead("todo.updated", { todos: [TEST] }), agent: "helper" };
  const quiet = { ...lead("todo.updated", { todos: [] }), agent: "quiet" };
  const state = foldEvents([...events, helper, quiet], [todosProjection]);
  const sections = reportTodos(state, { session: "s1", at: "2026-11-22T10:00:09.000Z" });
  assert.deepEqual(
    sections.map((section) => [section.title, section.lines.map(plainText)]),
    [["todos", ["◐ Fixing"]], ["todos (helper)", ["☐ Test"]]],
  );
  assert.deepEqual(reportTodos(state, { session: "s2", at: "" }), []);
});

Deno.test("a written list renders under its call, and other events are not the todos'", () => {
  const e = eventFactory();
  const lines = renderTodoEvent(e("todo.updated", { todos: [FIX, TEST] }));
  assert.deepEqual(lines?.map(plainText), ["  ⎿  ◐ Fixing", "     ☐ Test"]);
  assert.equal(lines?.[0]?.at(-1)?.style, "bold");
  assert.equal(renderTodoEvent(e("memory.noted", { text: "n", path: "MEMORY.md" })), undefined);
});
