import assert from "node:assert/strict";
import { renderTodos } from "./render_todos.ts";

Deno.test("todos render as checkbox lines, the one in progress by its active form", () => {
  assert.deepEqual(
    renderTodos([
      { content: "Read the parser", status: "completed", activeForm: "Reading the parser" },
      { content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
      { content: "Run the tests", status: "pending", activeForm: "Running the tests" },
    ]),
    ["☒ Read the parser", "◐ Fixing the bug", "☐ Run the tests"],
  );
  assert.deepEqual(renderTodos([]), []);
});
