import type { Envelope } from "./event_types.ts";
import { abortableSleep } from "./abortable_sleep.ts";

/** What {@link pollForAppend} needs of a store that learns of other writers only by looking. */
export interface PolledLog {
  /** Highest `seq` the store has seen. */
  lastSeq(): number;
  /** Catch up if the log may have changed since the last read (cheaply checked); else `[]`. */
  poll(): Promise<Envelope[]>;
}

/**
 * Poll `log` every `pollMs` until its `lastSeq()` exceeds `afterSeq`; resolve with everything the
 * polls caught up. The first poll runs at once. Rejects with `signal.reason` as soon as `signal`
 * aborts (a poll under way still finishes and delivers), and with the error of a failed poll.
 */
export function pollForAppend(
  log: PolledLog,
  afterSeq: number,
  signal: AbortSignal,
  pollMs: number,
): Promise<Envelope[]> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    pollUntil(log, afterSeq, signal, pollMs).then(
      (caught) => {
        signal.removeEventListener("abort", onAbort);
        resolve(caught);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

async function pollUntil(
  log: PolledLog,
  afterSeq: number,
  signal: AbortSignal,
  pollMs: number,
): Promise<Envelope[]> {
  const caught: Envelope[] = [];
  for (;;) {
    for (const event of await log.poll()) caught.push(event);
    if (log.lastSeq() > afterSeq) return caught;
    await abortableSleep(pollMs, signal);
  }
}
