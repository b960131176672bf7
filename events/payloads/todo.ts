import type { EventTable } from "./_payload.ts";

/** One item of an agent's todo list, in Claude Code's TodoWrite shape. */
export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
  /** The item in the present continuous, shown while it is in progress ("Running the tests"). */
  activeForm: string;
}

/** An agent's whole todo list after a `todo_write` call. */
export interface TodoUpdated {
  todos: TodoItem[];
}

/** Todos (s05). */
export interface TodoEvents {
  "todo.updated": TodoUpdated;
}

/** The event types of TodoEvents, for validation on read. */
export const TODO_EVENTS: EventTable<TodoEvents> = {
  "todo.updated": true,
};
