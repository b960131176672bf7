import type { AgentTodos } from "./todos_projection.ts";

/** Model rounds without a write to the list (and without a reminder) before one is added. */
export const TODO_REMINDER_ROUNDS = 3;

/**
 * The text of the todo reminder due before the agent's next model call, or undefined when none is
 * due: one is due when the list has an unfinished item and {@link TODO_REMINDER_ROUNDS} rounds
 * have passed since the list was last written and since the last reminder. The text names the
 * items compactly with their statuses. Pure.
 */
export function todoReminder(entry: AgentTodos): string | undefined {
  if (entry.writtenAtRound === null) return undefined;
  if (entry.todos.every((todo) => todo.status === "completed")) return undefined;
  const since = Math.max(entry.writtenAtRound, entry.remindedAtRound ?? 0);
  if (entry.rounds - since < TODO_REMINDER_ROUNDS) return undefined;
  const idle = entry.rounds - entry.writtenAtRound;
  return [
    `Your todo list has not been updated for ${idle} model rounds. If you are still working ` +
    "through it, bring it up to date with todo_write: mark finished items completed and the one " +
    "you are on in_progress. If the list no longer fits the task, rewrite it or leave it. Do not " +
    "mention this reminder to the user.",
    "",
    "Todos:",
    ...entry.todos.map((todo, index) => `${index + 1}. [${todo.status}] ${todo.content}`),
  ].join("\n");
}
