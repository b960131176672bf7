import { Delivery } from "./_delivery.ts";
import { encodeEvents } from "./_encode.ts";
import { knownEventTypes, parseEnvelope } from "./parse_envelope.ts";
import { createRedactor, type Redactor } from "./redact.ts";
import { decidedEvents } from "./_decided_events.ts";
import type { AppendDecision, AppendOptions, EventListener, EventStore } from "./store.ts";
import { CURRENT_VERSION, type Envelope, type NewEvent } from "./event_types.ts";

/** How to create a {@link MemoryEventStore}. */
export interface MemoryStoreOptions {
  /** Time source for `ts` stamps. */
  clock: () => Date;
  /** Values that must never reach the log; see `createRedactor`. */
  secrets?: readonly string[];
  /** Receives every event in seq order: the initial ones, caught up, or appended. */
  onEvent?: EventListener;
  /** The log's existing events, e.g. read from a file for replay; seq must run 1, 2, 3… */
  events?: readonly Envelope[];
  /** Event types of mechanisms declared outside rein that the log may hold. */
  eventTypes?: readonly string[];
  /**
   * Whether `event` is already what writing it out and reading it back would give: JSON data,
   * nothing to redact, a known type (replay hands the store the recorded events' own data). Such
   * events are stored as they are, which spares a serialization and a parse of each; with
   * `secrets`, every event is written out.
   */
  isEncoded?: (event: NewEvent) => boolean;
  /**
   * False for a log that keeps no events once they are delivered: its one writer sees its own
   * appends through `onEvent` and nothing else (replay, which folds a session as it goes and
   * must not hold all of it). `events` is then empty, `catchUp` and `waitForAppend` give no
   * events (the writer has had them all), and `connect` refuses. Default true.
   */
  keep?: boolean;
}

/** The log that connected in-memory writers share, as processes share one file. */
interface SharedLog {
  /** The events, when kept; and how many there are. */
  events: Envelope[] | undefined;
  length: number;
  /** Pending `waitForAppend` calls of every writer; each checks whether it is done. */
  waiters: Set<() => void>;
}

/**
 * An {@link EventStore} kept in memory, with the same semantics as the JSONL store: gapless
 * seq, listeners in seq order, redaction, parsed-back envelopes, closed stores refuse work.
 * `connect` gives another writer on the same log, to exercise catch-up; `waitForAppend` wakes
 * on any connected writer's append instead of polling. Used for replay and tests. The
 * constructor throws TypeError when `events` is not a gapless log from seq 1.
 */
export class MemoryEventStore implements EventStore {
  readonly #clock: () => Date;
  readonly #redact: Redactor;
  readonly #knownTypes: ReadonlySet<string>;
  readonly #isEncoded: ((event: NewEvent) => boolean) | undefined;
  #shared: SharedLog;
  #listeners: EventListener[] = [];
  #lastSeq = 0;
  #closed = false;
  /** The clock's last time, and its `ts`. */
  #lastTime = NaN;
  #lastTs = "";

  constructor(options: MemoryStoreOptions) {
    this.#clock = options.clock;
    this.#redact = createRedactor(options.secrets ?? []);
    this.#knownTypes = knownEventTypes(options.eventTypes);
    this.#isEncoded = (options.secrets ?? []).length === 0 ? options.isEncoded : undefined;
    const events = validateInitial(options.events ?? [], this.#knownTypes);
    this.#shared = {
      events: options.keep === false ? undefined : events,
      length: events.length,
      waiters: new Set(),
    };
    if (options.onEvent) this.#listeners.push(options.onEvent);
    if (this.#shared.events !== undefined) this.#pull();
    else {
      this.#lastSeq = events.length;
      this.#deliver(events);
    }
  }

  /**
   * Another writer on this store's log, as if a second process opened the same file. Its
   * `onEvent` receives every event already in the log. Never throws.
   */
  connect(options: Omit<MemoryStoreOptions, "events">): MemoryEventStore {
    if (this.#shared.events === undefined) {
      throw new Error("Cannot connect to an in-memory log that keeps no events");
    }
    const { onEvent, ...rest } = options;
    const other = new MemoryEventStore(rest);
    other.#shared = this.#shared;
    if (onEvent) other.#listeners.push(onEvent);
    other.#pull();
    return other;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Every event in the shared log, in seq order (a copy of the list, not of the events). */
  get events(): readonly Envelope[] {
    return [...this.#shared.events ?? []];
  }

  // Methods are async without awaits: each runs to completion, so appends are atomic.
  // deno-lint-ignore require-await
  async append(events: readonly NewEvent[], _options: AppendOptions = {}): Promise<Envelope[]> {
    this.#assertOpen("append to");
    if (events.length === 0) return [];
    return this.#appendNow(() => events);
  }

  // deno-lint-ignore require-await
  async appendDecided(decide: AppendDecision, _options: AppendOptions = {}): Promise<Envelope[]> {
    this.#assertOpen("append to");
    return this.#appendNow(decide);
  }

  // deno-lint-ignore require-await
  async catchUp(): Promise<Envelope[]> {
    this.#assertOpen("catch up on");
    return this.#pull();
  }

  waitForAppend(afterSeq: number, signal: AbortSignal, _pollMs?: number): Promise<Envelope[]> {
    const waiters = this.#shared.waiters;
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        try {
          signal.throwIfAborted();
          this.#assertOpen("wait on");
          if (this.#shared.length <= afterSeq) return;
          stop();
          resolve(this.#pull());
        } catch (error) {
          stop();
          reject(error);
        }
      };
      const stop = (): void => {
        waiters.delete(settle);
        signal.removeEventListener("abort", settle);
      };
      waiters.add(settle);
      signal.addEventListener("abort", settle);
      settle();
    });
  }

  // deno-lint-ignore require-await
  async sync(): Promise<void> {
    this.#assertOpen("sync");
  }

  subscribe(listener: EventListener): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  // deno-lint-ignore require-await
  async close(): Promise<void> {
    this.#closed = true;
    this.#wakeWaiters();
  }

  /** Catch up, decide on the caught-up state, append what was decided: all in one step. */
  #appendNow(decide: AppendDecision): Envelope[] {
    this.#pull();
    const events = decidedEvents(decide, this.#lastSeq);
    if (events.length === 0) return [];
    const ts = this.#timestamp();
    const envelopes = this.#encode(events, this.#lastSeq + 1, ts);
    const kept = this.#shared.events;
    if (kept !== undefined) { for (const envelope of envelopes) kept.push(envelope); }
    this.#shared.length += envelopes.length;
    this.#lastSeq += envelopes.length;
    this.#wakeWaiters();
    this.#deliver(envelopes);
    return envelopes;
  }

  /** The clock's time as an envelope's `ts` (written once per time: a replay's clock stands). */
  #timestamp(): string {
    const now = this.#clock();
    const time = now.getTime();
    if (time !== this.#lastTime) {
      this.#lastTime = time;
      this.#lastTs = now.toISOString();
    }
    return this.#lastTs;
  }

  /** The envelopes of `events` from `firstSeq` on, each as the JSONL store would read it back. */
  #encode(events: readonly NewEvent[], firstSeq: number, ts: string): Envelope[] {
    const isEncoded = this.#isEncoded;
    if (!isEncoded) {
      return encodeEvents(events, firstSeq, ts, this.#redact, this.#knownTypes).envelopes;
    }
    return events.map((event, i) => {
      const seq = firstSeq + i;
      if (!isEncoded(event)) {
        return encodeEvents([event], seq, ts, this.#redact, this.#knownTypes).envelopes[0]!;
      }
      const { type, session, agent, data } = event;
      return { v: CURRENT_VERSION, seq, ts, type, session, agent, data } as Envelope;
    });
  }

  /** Let every pending `waitForAppend` on the log check again, after the current step. */
  #wakeWaiters(): void {
    const waiters = this.#shared.waiters;
    if (waiters.size > 0) queueMicrotask(() => waiters.forEach((settle) => settle()));
  }

  #pull(): Envelope[] {
    // A log that keeps nothing has one writer, which has delivered its own appends.
    const fresh = this.#shared.events?.slice(this.#lastSeq) ?? [];
    this.#lastSeq += fresh.length;
    this.#deliver(fresh);
    return fresh;
  }

  #deliver(events: readonly Envelope[]): void {
    const delivery = new Delivery(this.#listeners);
    for (const event of events) delivery.deliver(event);
    delivery.rethrow();
  }

  #assertOpen(action: string): void {
    if (this.#closed) throw new Error(`Cannot ${action} the in-memory log: the store is closed`);
  }
}

function validateInitial(
  events: readonly Envelope[],
  knownTypes: ReadonlySet<string>,
): Envelope[] {
  return events.map((event, index) => {
    const checked = parseEnvelope(event, knownTypes);
    if (typeof checked === "string") {
      throw new TypeError(`Cannot use initial event ${index + 1}: ${checked}`);
    }
    if (checked.seq !== index + 1) {
      throw new TypeError(
        `Cannot use initial event ${index + 1}: expected seq ${index + 1}, found ${checked.seq}`,
      );
    }
    return checked;
  });
}
