import type { EventStore } from "../../events/store.ts";
import type { Arrival } from "../loop/arrivals.ts";
import type { State } from "../state/state.ts";
import type { PoolScope } from "../tools/tool_pool.ts";

/** What waiting for an agent's wake-up reads: the log, the state it folds into, the arrivals. */
export interface WakeSources {
  store: EventStore;
  state: State;
  /** An agent's arrivals not yet put before the model (the harness's `deps.arrivals`). */
  arrivals(scope: PoolScope): readonly Arrival[];
}

/**
 * Resolves with what is waiting for the agent of `scope` once something has reached it from
 * outside its loop (a background job's end appended by the job's watcher, later mail), checked
 * on the state after every append; at once when something is already waiting. Rejects with
 * `signal.reason` when `signal` aborts.
 */
export async function waitForArrivals(
  sources: WakeSources,
  scope: Omit<PoolScope, "state">,
  signal: AbortSignal,
  /** Arrival sources the caller takes up another way (cron firings, run as prompts). */
  ignored: readonly string[] = [],
): Promise<readonly Arrival[]> {
  while (true) {
    const waiting = sources.arrivals({ ...scope, state: sources.state })
      .filter((arrival) => !ignored.includes(arrival.source));
    if (waiting.length > 0) return waiting;
    signal.throwIfAborted();
    await sources.store.waitForAppend(sources.state.lastSeq, signal);
  }
}
