import type { Envelope } from "../../events/event_types.ts";
import { ReadFailed } from "./_replay_stops.ts";
import { Recorded } from "./recorded.ts";
import { ReplayOrder } from "./replay_order.ts";
import type { ReplayOptions, ReplayResult } from "./replay_result.ts";
import { SessionReplay } from "./session_replay.ts";

export type { Divergence, ReplayOptions, ReplayResult } from "./replay_result.ts";

/**
 * Re-drive a session's agents through the same harness as a live run, with the model, effect
 * tools, clock and retry delays served from its recorded events: no network, no tool runs, no
 * file writes. Decider tools and stage handlers run again. Agents that ran at once run at once
 * again, and every append waits until the events the log has before it are reproduced, so the
 * log's one total order is rebuilt and each agent reads the state it read then. Each produced
 * event is compared with the recorded one (timestamps and seq aside); the first mismatch is
 * returned as a {@link Divergence}. Events from outside the loops (the mechanisms' `fedTypes`)
 * are fed at their recorded positions. Where the recorded process died (a `session.resumed`
 * follows, or the log ends mid-turn), the runs of that process stop and replay continues as the
 * resume did.
 *
 * `session` gives the session's events in order, from its `session.started` on (events of other
 * sessions between them, which ran at the same time, are fed at their places as the world the
 * session's processes saw: they change the workspace-wide slices, never a tape), and is read only
 * as far as the replay has
 * come (an agent asking for its next recorded event reads on to it): a session read from the
 * log is replayed as it is read, holding what is still to be reproduced rather than all of it.
 * What reading it throws (a damaged line) stops the replay and is thrown.
 */
export async function replaySession(
  session: Iterable<Envelope>,
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  const order = new ReplayOrder();
  const recorded = new Recorded(session, () => order.stop(new ReadFailed()));
  try {
    const result = await SessionReplay.replay(recorded, order, options);
    if (recorded.failure) throw recorded.failure.error;
    return result;
  } finally {
    recorded.close();
  }
}

/** Group a log's events by session, in order of each session's start. Pure. */
export function eventsBySession(events: Iterable<Envelope>): Map<string, Envelope[]> {
  const sessions = new Map<string, Envelope[]>();
  for (const event of events) {
    const list = sessions.get(event.session);
    if (list) list.push(event);
    else sessions.set(event.session, [event]);
  }
  return sessions;
}
