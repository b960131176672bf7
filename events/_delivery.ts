import type { EventListener } from "./store.ts";
import type { Envelope } from "./event_types.ts";

/**
 * Hands events to listeners: a fixed list (`new Delivery(list)`), or the list a getter gives when
 * each event is delivered. An append passes its store's list as it is when the append's `lastSeq`
 * is past all its events (stores replace the list on `subscribe`, never change it in place): one
 * subscribed during that delivery saw that `lastSeq`, and gets none of them. A catch-up, whose
 * `lastSeq` moves one event at a time while its read is on the wire, passes a getter of the live
 * list: one subscribed meanwhile gets the events past the `lastSeq` it saw, as `subscribe`
 * promises every later event. A listener that throws does not stop delivery to the others or of
 * later events (which would leave projections silently behind the store); the first error is
 * kept and thrown by {@link Delivery.rethrow} once delivery is done.
 */
export class Delivery {
  readonly #listeners: () => readonly EventListener[];
  #failed = false;
  #error: unknown;

  constructor(listeners: readonly EventListener[] | (() => readonly EventListener[])) {
    this.#listeners = typeof listeners === "function" ? listeners : () => listeners;
  }

  deliver(event: Envelope): void {
    for (const listener of this.#listeners()) {
      try {
        listener(event);
      } catch (error) {
        if (!this.#failed) {
          this.#failed = true;
          this.#error = error;
        }
      }
    }
  }

  /** Throw the first error a listener threw, if any. */
  rethrow(): void {
    if (this.#failed) throw this.#error;
  }
}
