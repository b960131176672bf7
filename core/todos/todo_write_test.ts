import assert from "node:assert/strict";
import type { TodoItem } from "../../events/event_types.ts";
import { callContext } from "../../testing/tool_helpers.ts";
import {
  inputJsonSchema,
  loadToolSchema,
  toolDefinition,
  validateToolInput,
} from "../tools/schema.ts";
import { createTodoWriteTool, TODO_WRITE_INPUT_SCHEMA } from "./todo_write.ts";

const PLAN: TodoItem[] = [
  { content: "Read the parser", status: "completed", activeForm: "Reading the parser" },
  { content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
  { content: "Run the tests", status: "pending", activeForm: "Running the tests" },
];

Deno.test("todo_write ships the JSON Schema its zod schema gives", async () => {
  const tool = createTodoWriteTool();
  assert.deepEqual(inputJsonSchema(await loadToolSchema(tool)), TODO_WRITE_INPUT_SCHEMA);
  assert.equal(
    JSON.stringify(toolDefinition(tool).input_schema),
    JSON.stringify(inputJsonSchema(await loadToolSchema(tool))),
  );
});

Deno.test("todo_write records the whole list and tells the model what it holds", async () => {
  const result = await createTodoWriteTool().run({ todos: PLAN }, callContext());
  assert.deepEqual(result, {
    content: "Todo list saved: 3 items (1 completed, 1 in progress, 1 pending). Keep it current " +
      "as you work: the next item in_progress before you start it, completed as soon as it is done",
    events: [{ type: "todo.updated", data: { todos: PLAN } }],
  });
});

Deno.test("todo_write says when the list is cleared or all done", async () => {
  const tool = createTodoWriteTool();
  assert.equal((await tool.run({ todos: [] }, callContext())).content, "Todo list cleared");
  const done = PLAN.map((todo) => ({ ...todo, status: "completed" as const }));
  assert.equal(
    (await tool.run({ todos: done }, callContext())).content,
    "Todo list saved: all 3 items completed",
  );
});

Deno.test("todo_write refuses two items in progress and records nothing", async () => {
  const todos = PLAN.map((todo) => ({ ...todo, status: "in_progress" as const }));
  const result = await createTodoWriteTool().run({ todos }, callContext());
  assert.equal(result.isError, true);
  assert.equal(result.events, undefined);
  assert.match(result.content, /^The todo list was not saved: 3 items are in_progress/);
});

Deno.test("the schema refuses empty content and an unknown status, naming the field", async () => {
  const tool = createTodoWriteTool();
  const check = await validateToolInput(tool, {
    todos: [{ content: "", status: "doing", activeForm: "Doing" }],
  });
  assert.deepEqual(check, {
    ok: false,
    message: 'Invalid input for todo_write: "todos.0.content" must not be empty; ' +
      '"todos.0.status" must be one of "pending", "in_progress", "completed"',
  });
});

Deno.test("a todo_write call is summarized by its progress and the item in progress", () => {
  const tool = createTodoWriteTool();
  assert.equal(tool.summarize({ todos: PLAN }), "1/3 done, Fixing the bug");
  assert.equal(tool.summarize({ todos: [] }), "0/0 done");
});
