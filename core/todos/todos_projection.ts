import type { Envelope, TodoItem } from "../../events/event_types.ts";
import type { Projection } from "../state/projection.ts";

/** One agent's todo list in one session, and when it was last written and reminded of. */
export interface AgentTodos {
  /** The list as last written (empty before the first write). */
  todos: TodoItem[];
  /** Model rounds the agent has done in the session (its `model.responded` events). */
  rounds: number;
  /** `rounds` when the list was last written, or null if it never was. */
  writtenAtRound: number | null;
  /** `rounds` when the todo reminder was last added, or null if it never was. */
  remindedAtRound: number | null;
  /** Every write of the list with its seq, oldest first: a fork takes the list at its seq. */
  writes: Array<{ seq: number; todos: TodoItem[] }>;
}

/** Todo lists by session id, then agent name. */
export type TodosSlice = Record<string, Record<string, AgentTodos>>;

/** The `source` of the `reminder.added` events the todos mechanism adds. */
export const TODOS_SOURCE = "todos";

/**
 * Folds `todo.updated` into each agent's list, counts its model rounds, and notes the rounds of
 * its last write and last todo reminder. A forked session starts with the list its source agent
 * of the same name had at the fork's seq. Pure.
 */
export const todosProjection: Projection<TodosSlice> = {
  key: "todos",
  canHandle: ["session.started", "model.responded", "todo.updated", "reminder.added"],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    switch (event.type) {
      case "session.started": {
        const from = event.data.forkedFrom;
        if (from === undefined) return slice;
        const source = slice[from.session]?.[event.agent];
        const write = source?.writes.findLast((w) => w.seq <= from.seq);
        if (write) {
          slice[event.session] = {
            [event.agent]: {
              ...emptyAgentTodos(),
              todos: write.todos,
              writtenAtRound: 0,
              writes: [{ seq: event.seq, todos: write.todos }],
            },
          };
        }
        return slice;
      }
      case "model.responded":
        // A compaction's summary is not one of the agent's rounds.
        if (event.data.purpose === undefined) agentEntry(slice, event).rounds += 1;
        return slice;
      case "todo.updated": {
        const entry = agentEntry(slice, event);
        entry.todos = event.data.todos;
        entry.writtenAtRound = entry.rounds;
        entry.writes.push({ seq: event.seq, todos: event.data.todos });
        return slice;
      }
      case "reminder.added":
        if (event.data.source === TODOS_SOURCE) {
          agentEntry(slice, event).remindedAtRound = agentEntry(slice, event).rounds;
        }
        return slice;
      default:
        return slice;
    }
  },
};

/** The entry of `agent` in `session`: an empty one when it has none. Pure. */
export function agentTodosIn(slice: TodosSlice, session: string, agent: string): AgentTodos {
  return slice[session]?.[agent] ?? emptyAgentTodos();
}

function emptyAgentTodos(): AgentTodos {
  return { todos: [], rounds: 0, writtenAtRound: null, remindedAtRound: null, writes: [] };
}

function agentEntry(slice: TodosSlice, event: Envelope): AgentTodos {
  const session = slice[event.session] ??= {};
  return session[event.agent] ??= emptyAgentTodos();
}
