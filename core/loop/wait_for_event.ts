import type { Envelope, EnvelopeOf, EventType } from "../../events/event_types.ts";
import type { EventStore, LogReader } from "../../events/store.ts";

/**
 * The first event of `type` after `afterSeq` that `matches` (by seq): one already in the log
 * (read from the store's read side, when it has one), else the first appended from now on, by
 * any writer (over `waitForAppend`). What a stage waits for from another agent (a plan approval,
 * a shutdown answer), live; replay serves the recorded one. Rejects with `signal.reason` when
 * `signal` aborts first, and with what the store throws.
 */
export async function waitForEvent<T extends EventType>(
  store: EventStore,
  afterSeq: number,
  type: T,
  matches: (event: EnvelopeOf<T>) => boolean,
  signal: AbortSignal,
): Promise<EnvelopeOf<T>> {
  let found: EnvelopeOf<T> | undefined;
  const look = (event: Envelope) => {
    if (event.seq <= afterSeq || event.type !== type) return;
    if (found !== undefined && found.seq < event.seq) return;
    if (matches(event as EnvelopeOf<T>)) found = event as EnvelopeOf<T>;
  };
  // Subscribed first: nothing appended from here on is missed while the log is read back.
  const unsubscribe = store.subscribe(look);
  try {
    const reader = store as Partial<LogReader>;
    const upTo = store.lastSeq;
    if (upTo > afterSeq && typeof reader.read === "function") {
      for await (const event of reader.read.call(store, { fromSeq: afterSeq + 1, toSeq: upTo })) {
        look(event);
        if (found !== undefined && found.seq <= upTo) break;
      }
    }
    while (found === undefined) {
      signal.throwIfAborted();
      await store.waitForAppend(store.lastSeq, signal);
    }
    return found;
  } finally {
    unsubscribe();
  }
}
