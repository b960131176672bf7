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
 * outside its loop (a background job's end, appended by this process's job watcher), checked on
 * the state after each event this process folds; at once when something is already waiting.
 * It only listens: it never reads the log or takes its lock itself. Rejects with
 * `signal.reason` when `signal` aborts.
 */
export function waitForArrivals(
  sources: WakeSources,
  scope: Omit<PoolScope, "state">,
  signal: AbortSignal,
  /** Arrival sources the caller takes up another way (cron firings, run as prompts). */
  ignored: readonly string[] = [],
): Promise<readonly Arrival[]> {
  const waiting = () =>
    sources.arrivals({ ...scope, state: sources.state })
      .filter((arrival) => !ignored.includes(arrival.source));
  return new Promise((resolve, reject) => {
    let stopped = false;
    const stop = () => {
      stopped = true;
      unsubscribe();
      signal.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      stop();
      reject(signal.reason);
    };
    // Checked once the event is folded (listeners run as it is delivered).
    const check = () => {
      if (stopped) return;
      const found = waiting();
      if (found.length === 0) return;
      stop();
      resolve(found);
    };
    const unsubscribe = sources.store.subscribe(() => queueMicrotask(check));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    check();
  });
}
