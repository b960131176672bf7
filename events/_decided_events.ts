import type { AppendDecision } from "./store.ts";
import type { NewEvent } from "./event_types.ts";

/**
 * Call `decide` once with `lastSeq` and return its events. Rethrows what `decide` throws; throws
 * TypeError when it returns anything but an array (an async `decide` returns a promise).
 */
export function decidedEvents(decide: AppendDecision, lastSeq: number): readonly NewEvent[] {
  const events: unknown = decide(lastSeq);
  if (Array.isArray(events)) return events;
  const found = events instanceof Promise
    ? "a promise (decide must not await)"
    : String(JSON.stringify(events) ?? typeof events);
  throw new TypeError(`Cannot append the decided events: expected an array, found ${found}`);
}
