import { abortableSleep } from "../../events/abortable_sleep.ts";
import type { WakeLive, WakeSource } from "../../core/loop/wake_source.ts";
import type { State } from "../../core/state/state.ts";
import { tallyAsks } from "./tally_projection.ts";

/** Whether the tally is on for a session (see `tallyEnabled`). */
export type TallyOn = (state: State, session: string) => boolean;

/** How often a live process looks for asks another process appended, in milliseconds. */
const POLL_MS = 100;

/**
 * What the tally wakes (`Mechanism.wake`): an ask (`tally.asked`) waiting for an idle agent whose
 * session has the tally `on` starts a turn on it, the ask put before the model as an arrival. Live
 * (the REPL, `rein daemon`), it follows the log for asks other processes append (`waitForAppend`,
 * one `stat` a poll), so the runner folds them and wakes the agent. A run waits for no ask.
 * Pure but for `live`.
 */
export function tallyWake(on: TallyOn): WakeSource {
  return {
    pending: (scope) =>
      on(scope.state, scope.session)
        ? tallyAsks(scope).map(({ source, key, seq }) => ({ source, key, seq }))
        : [],
    live(live) {
      const stopping = new AbortController();
      void followAsks(live, on, stopping.signal);
      return { stop: () => stopping.abort() };
    },
  };
}

/** Catch up on other processes' appends while the tally is on, until `signal` aborts. */
async function followAsks(live: WakeLive, on: TallyOn, signal: AbortSignal): Promise<void> {
  try {
    while (!signal.aborted) {
      if (on(live.state, live.scope().session)) {
        await live.store.waitForAppend(live.store.lastSeq, signal, POLL_MS);
      } else {
        await abortableSleep(live.tickMs, signal);
      }
    }
  } catch (error) {
    // Stopped, or the log failed: said once, and the process goes on without following it.
    if (!signal.aborted) live.onError(error);
  }
}
