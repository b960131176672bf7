import type { Envelope } from "../../events/event_types.ts";
import type { Arrival } from "../../core/loop/arrivals.ts";
import type { Projection } from "../../core/state/projection.ts";
import { sliceOf, type State } from "../../core/state/state.ts";
import type { PoolScope } from "../../core/tools/tool_pool.ts";
import "./tally_extension.ts";

/** The `source` of the tally's arrivals (its `arrival.injected` events) and wake-ups. */
export const TALLY_SOURCE = "tally";

/** An ask not yet put before its agent. */
export interface TallyAsk {
  agent: string;
  by: number;
  /** seq of its `tally.asked`. */
  seq: number;
}

/** What the tally folds of one session. */
export interface SessionTally {
  /** The session's tally. */
  total: number;
  /** Asks not yet put before their agent, in log order. */
  asked: TallyAsk[];
}

/** What the tally folds, by session id (as every session's slice is kept). */
export type TallySlice = Record<string, SessionTally>;

/** The tally of each session, and what the session's agents were asked to add. */
export const tallyProjection: Projection<TallySlice> = {
  key: "tally",
  canHandle: ["tally.added", "tally.asked", "arrival.injected"],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    if (event.type === "tally.added") {
      (slice[event.session] ??= { total: 0, asked: [] }).total = event.data.total;
    }
    if (event.type === "tally.asked") {
      (slice[event.session] ??= { total: 0, asked: [] }).asked.push({
        agent: event.agent,
        by: event.data.by,
        seq: event.seq,
      });
    }
    const session = slice[event.session];
    if (event.type === "arrival.injected" && event.data.source === TALLY_SOURCE && session) {
      session.asked = session.asked.filter((ask) => `${ask.seq}` !== event.data.key);
    }
    return slice;
  },
};

/** The tally of `session` now. Pure. */
export function tallyOf(state: State, session: string): number {
  return sliceOf(state, tallyProjection)[session]?.total ?? 0;
}

/** What `scope`'s agent was asked to add and has not been told yet, oldest first. Pure. */
export function tallyAsks(scope: PoolScope): Arrival[] {
  const asked = sliceOf(scope.state, tallyProjection)[scope.session]?.asked ?? [];
  return asked.filter((ask) => ask.agent === scope.agent).map((ask) => ({
    source: TALLY_SOURCE,
    key: `${ask.seq}`,
    seq: ask.seq,
    text: `Please add ${ask.by} to the tally.`,
  }));
}
