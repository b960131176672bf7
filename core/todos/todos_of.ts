import type { TodoItem } from "../../events/event_types.ts";
import { sliceOf, type State } from "../state/state.ts";
import { agentTodosIn, todosProjection } from "./todos_projection.ts";

/**
 * The todo list of `agent` in `session` as last written (empty when it never was). Pure. Throws
 * if the state was folded without the todos projection (a harness without the todos mechanism).
 */
export function todosOf(state: State, session: string, agent: string): TodoItem[] {
  return agentTodosIn(sliceOf(state, todosProjection), session, agent).todos;
}
