import type { Envelope, NewEvent } from "../../events/event_types.ts";
import { catalogSliceOf } from "../state/catalog.ts";
import { taskGraphProjection } from "../tasks/tasks_projection.ts";
import type { State } from "../state/state.ts";
import { unreadMail } from "../mail/mail_of.ts";
import { heldTasks, idleClaim, isIdleTeammate } from "./idle_claim.ts";

/** The environment variable that sets how long a teammate idles before it stops (ms). */
export const IDLE_TIMEOUT_ENV = "REIN_IDLE_TIMEOUT_MS";

/** How long a teammate with nothing to do idles before it stops, by default: 5 minutes. */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/**
 * The idle timeout in milliseconds: `REIN_IDLE_TIMEOUT_MS` (a whole number), else the
 * `idleTimeout` setting (milliseconds), else {@link DEFAULT_IDLE_TIMEOUT_MS}. Pure.
 */
export function idleTimeoutMs(env: string | undefined, setting: unknown): number {
  for (const value of [env, setting]) {
    const ms = typeof value === "string" ? Number(value.trim()) : value;
    if (typeof ms === "number" && Number.isInteger(ms) && ms >= 0) return ms;
  }
  return DEFAULT_IDLE_TIMEOUT_MS;
}

/**
 * The record of teammate `agent` of `session` stopping itself because its idle time ran out:
 * `agent.stopped {reason: "idle"}` (the teammate the envelope's agent), after a `task.released`
 * (`idle: true`) of each task it still holds, only while it is still an idle teammate with no
 * unread mail and nothing to claim; none otherwise. Decided under the log's lock. Pure.
 */
export function idleStop(state: State, session: string, agent: string): NewEvent[] {
  if (!isIdleTeammate(state, session, agent)) return [];
  if (unreadMail(state, session, agent).length > 0) return [];
  if (idleClaim(state, session, agent) !== undefined) return [];
  const graph = catalogSliceOf(state.catalog, taskGraphProjection);
  // A task it still holds is handed back: another teammate can take it up.
  const released: NewEvent[] = heldTasks(graph, session, agent).map((task) => ({
    type: "task.released",
    session,
    agent,
    data: { id: task.id, reason: `${agent} stopped after idling with it unfinished`, idle: true },
  }));
  return [...released, { type: "agent.stopped", session, agent, data: { reason: "idle" } }];
}

/** Whether `event` is a task handed back by a teammate stopping after its idle timeout. Pure. */
export function isIdleRelease(event: Envelope): boolean {
  return event.type === "task.released" && event.data.idle === true;
}
