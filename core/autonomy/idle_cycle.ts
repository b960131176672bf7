import { abortableSleep } from "../../events/abortable_sleep.ts";
import type { EventStore } from "../../events/store.ts";
import type { Wake } from "../loop/wake_source.ts";
import type { State } from "../state/state.ts";
import { idleStop } from "./idle_timeout.ts";

/** What an idle teammate's process waits with: its log and the state that log folds into. */
export interface IdleHost {
  store: EventStore;
  /** The process's state, kept current by the store (caught up under the lock). */
  state: State;
}

/**
 * An idle teammate's wait, live: what wakes it next (`next`: mail, a task to claim), or, once it
 * has been idle for `timeoutMs` with nothing to do, its `agent.stopped {reason: "idle"}` appended
 * under the log's lock (see `idleStop`: only if still idle with nothing to claim, else it waits
 * another `timeoutMs`) and "stopped". One timer, no polling: an idle teammate costs no model
 * tokens and almost no CPU. Rejects with `signal.reason` when `signal` aborts first.
 */
export async function idleWait(
  host: IdleHost,
  scope: { session: string; agent: string },
  next: (signal: AbortSignal) => Promise<Wake>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Wake | "stopped"> {
  const done = new AbortController();
  const both = AbortSignal.any([signal, done.signal]);
  const timeout = async (): Promise<"stopped"> => {
    for (;;) {
      await abortableSleep(timeoutMs, both);
      const stored = await host.store.appendDecided(
        () => idleStop(host.state, scope.session, scope.agent),
        { sync: true },
      );
      if (stored.length > 0) return "stopped";
    }
  };
  const woken = next(both);
  const stopped = timeout();
  // The loser rejects once `done` aborts: nobody waits for it.
  woken.catch(() => {});
  stopped.catch(() => {});
  try {
    return await Promise.race([woken, stopped]);
  } finally {
    done.abort();
  }
}
