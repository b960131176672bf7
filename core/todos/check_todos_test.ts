import assert from "node:assert/strict";
import type { TodoItem } from "../../events/event_types.ts";
import { checkTodos } from "./check_todos.ts";

function item(content: string, status: TodoItem["status"], activeForm = `${content}…`): TodoItem {
  return { content, status, activeForm };
}

Deno.test("a list with at most one item in progress is kept", () => {
  assert.equal(checkTodos([]), undefined);
  assert.equal(
    checkTodos([item("A", "completed"), item("B", "in_progress"), item("C", "pending")]),
    undefined,
  );
  assert.equal(checkTodos([item("A", "completed"), item("B", "completed")]), undefined);
});

Deno.test("two items in progress are refused, naming them", () => {
  assert.equal(
    checkTodos([item("Read", "in_progress"), item("Fix", "pending"), item("Test", "in_progress")]),
    'The todo list was not saved: 2 items are in_progress (1 ("Read"), 3 ("Test")); at most one ' +
      "may be: mark the others pending or completed. Send the whole list again, fixed",
  );
});

Deno.test("blank content and blank activeForm are refused", () => {
  assert.equal(
    checkTodos([item("  ", "pending"), item("Fix", "pending", "")]),
    'The todo list was not saved: item 1 has empty content; item 2 ("Fix") has an empty ' +
      "activeForm. Send the whole list again, fixed",
  );
});
