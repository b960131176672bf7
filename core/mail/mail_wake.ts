import { abortableSleep } from "../../events/abortable_sleep.ts";
import type { WakeLive, WakeSource } from "../loop/wake_source.ts";
import { mailArrivals } from "./mail_arrivals.ts";
import { teamsOn } from "./teams_enabled.ts";

/** How often a live process looks for mail another process appended, in milliseconds. */
const POLL_MS = 100;

/**
 * What mail wakes (`Mechanism.wake`): unread mail waiting for an idle agent starts a turn on it,
 * the mail put before the model as its arrival (the REPL at its prompt, `rein daemon`; `rein -p`
 * runs that turn before it ends, for mail sent since its run began). Live, while teams are on,
 * the log is followed for mail another process appends (`waitForAppend`, one `stat` a poll), so
 * the runner folds it and wakes the agent. Pure but for `live`.
 */
export const mailWake: WakeSource = {
  pending: (scope) => mailArrivals(scope).map(({ source, key, seq }) => ({ source, key, seq })),
  live(live) {
    const stopping = new AbortController();
    void followMail(live, stopping.signal);
    return { stop: () => stopping.abort() };
  },
};

/** Catch up on other processes' appends while teams are on, until `signal` aborts. */
async function followMail(live: WakeLive, signal: AbortSignal): Promise<void> {
  try {
    while (!signal.aborted) {
      if (teamsOn(live.state, live.scope().session)) {
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
