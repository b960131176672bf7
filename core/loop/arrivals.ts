import type { ReinEvent } from "../../events/event_types.ts";
import type { PoolScope } from "../tools/tool_pool.ts";

/**
 * Input that reached an agent from outside its loop and waits for its next model call: a
 * background job's end, later a cron firing or a teammate's mail (design.md §11's external
 * arrivals). The event that brought it is in the log, appended under the log's lock by whoever
 * saw it happen; a mechanism lists what of it the agent has not been given yet.
 */
export interface Arrival {
  /** The mechanism it belongs to (`jobs`), whose projection stops listing it once injected. */
  source: string;
  /** What arrived, unique within the source (a job's id). */
  key: string;
  /** seq of the event that brought it: arrivals are put before the model in this order. */
  seq: number;
  /** What the model reads, as a block of the next user message. */
  text: string;
  /**
   * Events taking it up decides, recorded just before its `arrival.injected`, in the same append
   * under the log's lock (an idle teammate's `task.claimed`): a pure function of the state, as
   * the arrival is.
   */
  events?: readonly ReinEvent[];
}

/**
 * The arrivals of an agent not yet put before the model, from one mechanism. Pure over the state
 * (replay calls it on the state the recorded run saw); an arrival is listed until the
 * mechanism's projection folds the `arrival.injected` of its source and key.
 */
export type ArrivalSource = (scope: PoolScope) => readonly Arrival[];

/** Every source's arrivals for `scope`, in log order (by seq, then source and key). Pure. */
export function pendingArrivals(
  scope: PoolScope,
  sources: readonly ArrivalSource[],
): Arrival[] {
  return sources.flatMap((source) => source(scope)).sort((a, b) =>
    a.seq - b.seq || compare(a.source, b.source) || compare(a.key, b.key)
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
