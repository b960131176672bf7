import type { CronFired, CronRead, Envelope } from "../../events/event_types.ts";
import type { Projection } from "../state/projection.ts";

/** The `source` of the arrivals cron puts before the model (`arrival.injected`). */
export const CRON_SOURCE = "cron";

/** A firing recorded in a session and not yet put before its agent. */
export interface PendingFiring extends CronFired {
  /** The agent it is for (the `cron.fired`'s). */
  agent: string;
  /** seq of its `cron.fired`. */
  seq: number;
}

/** What one session knows of cron beyond the workspace's table (`catalog.cron`). */
export interface SessionCron {
  /** What each cron tool call read before it ran (`cron.read`), by call id, until it completed. */
  reads: Record<string, CronRead>;
  /** Firings of the session waiting for their agent's next model call, in log order. */
  pending: PendingFiring[];
}

/** Cron by session id. */
export type CronSlice = Record<string, SessionCron>;

/** The key of an arrival of cron: the job and the minute it fired for. Pure. */
export function firingKey(firing: Pick<CronFired, "id" | "minute">): string {
  return `${firing.id}@${firing.minute}`;
}

/**
 * Each session's cron tool readings and the firings it has not put before its agent yet: a
 * `cron.fired` of the session waits until the agent takes it up, as a prompt of its own
 * (`cron.delivered`) or with its next request (`arrival.injected` of cron with its key). A
 * forked session starts with none. Pure.
 */
export const cronProjection: Projection<CronSlice> = {
  key: "cron",
  canHandle: ["cron.read", "tool.completed", "cron.fired", "cron.delivered", "arrival.injected"],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    switch (event.type) {
      case "cron.read":
        sessionEntry(slice, event.session).reads[event.data.callId] = event.data;
        return slice;
      case "tool.completed": {
        const entry = slice[event.session];
        if (entry?.reads[event.data.callId]) delete entry.reads[event.data.callId];
        return slice;
      }
      case "cron.fired":
        sessionEntry(slice, event.session).pending.push({
          ...event.data,
          agent: event.agent,
          seq: event.seq,
        });
        return slice;
      case "cron.delivered":
        taken(slice, event.session, event.agent, firingKey(event.data));
        return slice;
      case "arrival.injected":
        if (event.data.source === CRON_SOURCE) {
          taken(slice, event.session, event.agent, event.data.key);
        }
        return slice;
      default:
        return slice;
    }
  },
};

/** The cron entry of `session`: an empty one when it has none. Pure. */
export function sessionCronIn(slice: CronSlice, session: string): SessionCron {
  return slice[session] ?? { reads: {}, pending: [] };
}

/** The firing `key` of `agent` in `session` is taken up: it waits no more. */
function taken(slice: CronSlice, session: string, agent: string, key: string): void {
  const entry = slice[session];
  if (entry === undefined) return;
  entry.pending = entry.pending.filter((firing) =>
    firingKey(firing) !== key || firing.agent !== agent
  );
}

function sessionEntry(slice: CronSlice, session: string): SessionCron {
  return slice[session] ??= { reads: {}, pending: [] };
}
