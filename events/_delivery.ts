import type { EventListener } from "./store.ts";
import type { Envelope } from "./event_types.ts";

/**
 * Hands events to the listeners `listeners()` gives when each event is delivered, so that one
 * subscribed while a catch-up is under way (its read on the wire) gets that catch-up's events
 * past the `lastSeq` it saw, as `subscribe` promises every later event. Where `lastSeq` is past
 * every event to deliver before the first is (an append's), `listeners()` gives the list as it
 * was then: one subscribed during the delivery saw that `lastSeq`, and gets none of them. A
 * listener that throws does not stop delivery to the others or of later events (which would
 * leave projections silently behind the store); the first error is kept and thrown by
 * {@link Delivery.rethrow} once delivery is done.
 */
export class Delivery {
  readonly #listeners: () => readonly EventListener[];
  #failed = false;
  #error: unknown;

  constructor(listeners: () => readonly EventListener[]) {
    this.#listeners = listeners;
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
