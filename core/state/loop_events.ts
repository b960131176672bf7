import type { EventType } from "../../events/event_types.ts";

/**
 * Event types only the loop records: a tool or a stage handler that returns one is refused (a
 * second `tool.completed` for a call, say, would give the model two results for one request).
 * `user.prompted` and `model.switched` are not among them: a stage may add input (a Stop hook's
 * "not done yet") or change the model (a fallback when it is overloaded).
 */
export const LOOP_EVENT_TYPES: ReadonlySet<string> = new Set<EventType>([
  "session.started",
  "session.resumed",
  "session.ended",
  "turn.started",
  "turn.ended",
  "model.requested",
  "model.responded",
  "model.failed",
  "model.cancelled",
  "tool.requested",
  "tool.completed",
  "arrival.injected",
]);
