import type { NewEvent } from "../../events/event_types.ts";
import type { EventStore } from "../../events/store.ts";

/**
 * `store` with every append held by `before` (which waits for its turn in the recorded order),
 * its events then passed through `prepare`, and checked by `after`. The other operations pass
 * through.
 */
export function orderedStore(
  store: EventStore,
  prepare: (events: readonly NewEvent[]) => NewEvent[],
  before: (events: readonly NewEvent[]) => Promise<void>,
  after: () => void,
): EventStore {
  return {
    get lastSeq() {
      return store.lastSeq;
    },
    async append(events, options) {
      await before(events);
      const envelopes = await store.append(prepare(events), options);
      after();
      return envelopes;
    },
    async appendDecided(decide, options) {
      const events = decide(store.lastSeq);
      await before(events);
      const envelopes = await store.append(prepare(events), options);
      after();
      return envelopes;
    },
    catchUp: () => store.catchUp(),
    waitForAppend: (afterSeq, signal, pollMs) => store.waitForAppend(afterSeq, signal, pollMs),
    sync: () => store.sync(),
    subscribe: (listener) => store.subscribe(listener),
    close: () => store.close(),
  };
}
