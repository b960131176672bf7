import type { TodoItem } from "../../events/event_types.ts";

const BOX: Record<TodoItem["status"], string> = {
  pending: "☐",
  in_progress: "◐",
  completed: "☒",
};

/**
 * A todo list as checkbox lines, one per item in list order: `☐ content` for a pending item,
 * `◐ activeForm` for the one in progress, `☒ content` for a completed one. No colours and no
 * indentation: the caller adds them (the REPL highlights the `◐` line). Pure.
 */
export function renderTodos(todos: readonly TodoItem[]): string[] {
  return todos.map((todo) =>
    `${BOX[todo.status]} ${todo.status === "in_progress" ? todo.activeForm : todo.content}`
  );
}
