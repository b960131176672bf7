import type { TodoItem } from "../../events/event_types.ts";

/**
 * What is wrong with a todo list the model wrote, worded for the model, or undefined when it can
 * be kept: every item needs non-blank `content` and `activeForm`, and at most one item may be
 * `in_progress`. Pure.
 */
export function checkTodos(todos: readonly TodoItem[]): string | undefined {
  const problems: string[] = [];
  todos.forEach((todo, index) => {
    if (todo.content.trim() === "") problems.push(`item ${index + 1} has empty content`);
    if (todo.activeForm.trim() === "") {
      problems.push(`item ${index + 1} ("${todo.content}") has an empty activeForm`);
    }
  });
  const active = todos.flatMap((todo, index) => todo.status === "in_progress" ? [index] : []);
  if (active.length > 1) {
    const items = active.map((index) => `${index + 1} ("${todos[index]?.content}")`);
    problems.push(
      `${active.length} items are in_progress (${items.join(", ")}); at most one may be: ` +
        "mark the others pending or completed",
    );
  }
  if (problems.length === 0) return undefined;
  return `The todo list was not saved: ${problems.join("; ")}. Send the whole list again, fixed`;
}
