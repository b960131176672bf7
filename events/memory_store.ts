import { Delivery } from "./_delivery.ts";
import { encodeEvents } from "./_encode.ts";
import { knownEventTypes, parseEnvelope } from "./parse_envelope.ts";
import { createRedactor, type Redactor } from "./redact.ts";
import { decidedEvents } from "./_decided_events.ts";
import type {
  AppendDecision,
  AppendOptions,
  EventListener,
  EventStore,
  LeaseOutcome,
  Leases,
  LogReader,
  ReadRange,
} from "./store.ts";
import { type StartPoint, StartPointError } from "./start_point.ts";
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
  /**
   * Deliver only the events after `start.seq` (a snapshot's place, whose state the caller has);
   * a byte offset in it is ignored. Throws {@link StartPointError} when the log holds fewer
   * events.
   */
  start?: StartPoint;
}

/** The log that connected in-memory writers share, as processes share one file. */
interface SharedLog {
  /** The events, when kept; and how many there are. */
  events: Envelope[] | undefined;
  length: number;
  /** Pending `waitForAppend` calls and followers of every writer; each checks whether it is done. */
  waiters: Set<() => void>;
  /** The leases held, by session and agent, and the writer holding each. */
  leases: Map<string, MemoryEventStore>;
}

/**
 * An {@link EventStore} kept in memory, with the same semantics as the JSONL store: gapless
 * seq, listeners in seq order, redaction, parsed-back envelopes, closed stores refuse work.
 * `connect` gives another writer on the same log, to exercise catch-up; `waitForAppend` wakes
 * on any connected writer's append instead of polling. Used for replay and tests. The
 * constructor throws TypeError when `events` is not a gapless log from seq 1.
 */
export class MemoryEventStore implements EventStore, LogReader, Leases {
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
      leases: new Map(),
    };
    if (options.onEvent) this.#listeners.push(options.onEvent);
    this.#skipTo(options.start);
    if (this.#shared.events !== undefined) this.#pull();
    else {
      const from = this.#lastSeq;
      this.#lastSeq = events.length;
      this.#deliver(events.slice(from));
    }
  }

  /**
   * Another writer on this store's log, as if a second process opened the same file. Its
   * `onEvent` receives every event already in the log (after `start`, when given). Throws only
   * {@link StartPointError}, for a start past the log's end.
   */
  connect(options: Omit<MemoryStoreOptions, "events">): MemoryEventStore {
    if (this.#shared.events === undefined) {
      throw new Error("Cannot connect to an in-memory log that keeps no events");
    }
    const { onEvent, start, ...rest } = options;
    const other = new MemoryEventStore(rest);
    other.#shared = this.#shared;
    if (onEvent) other.#listeners.push(onEvent);
    other.#skipTo(start);
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

  /**
   * The events of `range` (as the shared log holds them when each is read). Throws for a log
   * that keeps no events.
   */
  async *read(range: ReadRange = {}): AsyncGenerator<Envelope, void, undefined> {
    this.#assertOpen("read");
    const { fromSeq = 1, toSeq = Infinity, session } = range;
    const events = this.#kept("read");
    for (let seq = Math.max(1, fromSeq); seq <= Math.min(toSeq, events.length); seq++) {
      const event = events[seq - 1]!;
      if (session === undefined || event.session === session) yield event;
      await Promise.resolve();
    }
  }

  /**
   * Follow the shared log from `fromSeq` on, waking on any connected writer's append, until
   * `signal` aborts. Throws for a log that keeps no events, and when this store is closed.
   */
  async *followLog(
    fromSeq: number,
    signal: AbortSignal,
  ): AsyncGenerator<Envelope, void, undefined> {
    this.#assertOpen("follow");
    const events = this.#kept("follow");
    let next = Math.max(1, fromSeq);
    while (!signal.aborted) {
      if (next <= events.length) {
        yield events[next - 1]!;
        next++;
        continue;
      }
      await this.#appended(signal);
      this.#assertOpen("follow");
    }
  }

  /**
   * Take the lease of `agent` in `session` on the shared log, or say that another connected
   * writer holds it; a closed store's leases are free again.
   */
  // deno-lint-ignore require-await
  async lease(session: string, agent: string): Promise<LeaseOutcome> {
    this.#assertOpen("lease a session of");
    const key = JSON.stringify([session, agent]);
    const leases = this.#shared.leases;
    if (leases.has(key)) return { held: false, holder: "another writer of this log" };
    leases.set(key, this);
    return {
      held: true,
      lease: {
        session,
        agent,
        release: () => {
          if (leases.get(key) === this) leases.delete(key);
        },
      },
    };
  }

  // deno-lint-ignore require-await
  async close(): Promise<void> {
    this.#closed = true;
    for (const [key, holder] of this.#shared.leases) {
      if (holder === this) this.#shared.leases.delete(key);
    }
    this.#wakeWaiters();
  }

  /** Count the events up to `start.seq` as delivered; see {@link MemoryStoreOptions.start}. */
  #skipTo(start: StartPoint | undefined): void {
    if (start === undefined) return;
    if (!Number.isInteger(start.seq) || start.seq < 0 || start.seq > this.#shared.length) {
      throw new StartPointError(
        `Cannot start reading the in-memory log after seq ${start.seq}: it holds ` +
          `${this.#shared.length} events`,
      );
    }
    this.#lastSeq = start.seq;
  }

  /** The shared log's events, or a refusal to `action` a log that keeps none. */
  #kept(action: string): readonly Envelope[] {
    const events = this.#shared.events;
    if (events === undefined) {
      throw new Error(`Cannot ${action} an in-memory log that keeps no events`);
    }
    return events;
  }

  /** Resolve on the next append to the shared log, on `signal`'s abort, or on a close. */
  #appended(signal: AbortSignal): Promise<void> {
    const waiters = this.#shared.waiters;
    return new Promise((resolve) => {
      const wake = (): void => {
        waiters.delete(wake);
        signal.removeEventListener("abort", wake);
        resolve();
      };
      waiters.add(wake);
      signal.addEventListener("abort", wake);
    });
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
