import type { Envelope, NewEvent } from "./event_types.ts";

/** Options for {@link EventStore.append}. */
export interface AppendOptions {
  /** Flush to disk (`syncData`) before returning. Use at turn boundaries and after tool intents. */
  sync?: boolean;
}

/** Called once per event, in `seq` order: events read from disk, caught up, and appended. */
export type EventListener = (event: Envelope) => void;

/**
 * Chooses what to append from the caller's state, as folded by its listeners, given the `seq` of
 * the last event that state includes. Synchronous and pure over that state: it must not await,
 * perform I/O, or call the store. Returning no events appends nothing.
 */
export type AppendDecision = (lastSeq: number) => readonly NewEvent[];

/**
 * An append-only, totally ordered event log shared by every session and agent of a workspace.
 * Implementations: the JSONL file store (`jsonl_store.ts`) and the in-memory store
 * (`memory_store.ts`); both pass the same contract suite.
 */
export interface EventStore {
  /** Highest `seq` this store has seen (its own appends and everything caught up). 0 when empty. */
  readonly lastSeq: number;
  /**
   * Append a batch atomically. Under the log lock: catch up on what other writers appended
   * (delivering it to listeners), assign gapless `seq`s, stamp `v` and `ts`, redact secrets,
   * write every byte, optionally sync, release. Returns the stored envelopes.
   * Throws if the store is closed or a previous sync failed (a failed sync is fatal).
   */
  append(events: readonly NewEvent[], options?: AppendOptions): Promise<Envelope[]>;
  /**
   * The race rule "decide on the caught-up state under the lock", for appends that depend on
   * what others did (claiming a task, taking a lease). Under the log lock: catch up on other
   * writers' appends and deliver them to listeners, so state folded by listeners is current;
   * call `decide(lastSeq)` exactly once; append what it returned as
   * {@link EventStore.append} does. Resolves with the stored envelopes, `[]` when `decide`
   * returned none. Rejects like {@link EventStore.append}, with what `decide` throws (nothing
   * is appended then), with a listener's error from the catch-up (before `decide` is called),
   * and with a TypeError when `decide` returns something other than an array (say, a promise).
   */
  appendDecided(decide: AppendDecision, options?: AppendOptions): Promise<Envelope[]>;
  /** Deliver to listeners anything other writers appended since the last read; returns it. */
  catchUp(): Promise<Envelope[]>;
  /**
   * Wait until the log holds an event with `seq` > `afterSeq` (appended by any writer, this one
   * included), then resolve with what this call caught up, delivered to listeners as
   * {@link EventStore.catchUp} does. Resolves at once when the log is already past `afterSeq`;
   * the result can then be empty (those events were delivered earlier), so read progress from
   * {@link EventStore.lastSeq} or the listeners' state. The JSONL store polls every `pollMs`
   * (default 50) with one `stat` and takes the lock only when the file changed; the memory
   * store wakes on the next append and ignores `pollMs`. Rejects with `signal.reason` when
   * `signal` aborts (events caught up meanwhile still reach the listeners), with the error of a
   * failed catch-up, and when the store is or gets closed.
   */
  waitForAppend(afterSeq: number, signal: AbortSignal, pollMs?: number): Promise<Envelope[]>;
  /** Flush written data to disk. Throws (and poisons the store) on failure. */
  sync(): Promise<void>;
  /** Register a listener for every later event; returns a function that removes it. */
  subscribe(listener: EventListener): () => void;
  /** Release the file. Later appends throw. */
  close(): Promise<void>;
}

/** Which events {@link LogReader.read} hands out. */
export interface ReadRange {
  /** The first seq wanted; default 1. */
  fromSeq?: number;
  /** The last seq wanted (inclusive); default: the log's end when the read reaches it. */
  toSeq?: number;
  /** Only this session's events. */
  session?: string;
}

/**
 * The read side of a log, apart from its writers: what a web view, `rein state` or a second
 * process watching a team needs. Reading takes no lock, never writes and never repairs; a last
 * event still being written (a torn line) is not handed out until it is complete. The JSONL
 * store and the memory store implement it; `openLogReader` (jsonl_reader.ts) gives one over a
 * JSONL file that needs only read permission. A PostgreSQL store reads by seq range from its
 * table and follows with `LISTEN/NOTIFY`.
 */
export interface LogReader {
  /** The events of `range`, in seq order, as the log holds them when each is read. */
  read(range?: ReadRange): AsyncIterable<Envelope>;
  /**
   * The events from `fromSeq` on, in seq order, each once: those already in the log, then each
   * new one as it is appended, until `signal` aborts (the iteration then ends; it does not
   * throw). Throws when the log is cut back before an event already handed out (salvaged,
   * replaced, truncated), so the follower never hands out two different events with one seq.
   */
  followLog(fromSeq: number, signal: AbortSignal): AsyncIterable<Envelope>;
}

/** An agent of a session that this process drives, until {@link Lease.release}. */
export interface Lease {
  readonly session: string;
  readonly agent: string;
  /** Give the agent up. Idempotent; also done when the holder's store is closed or dies. */
  release(): void;
}

/** What {@link Leases.lease} gives: the lease, or who holds it instead. */
export type LeaseOutcome =
  | { held: true; lease: Lease }
  | { held: false; /** Who holds it, when known (for a message): `pid 1234`. */ holder?: string };

/**
 * Leases as a store capability: at most one live holder per (session, agent) across every
 * process on the log, freed when the holder releases it or dies (even by SIGKILL), so a crashed
 * session can be resumed at once. The JSONL store takes an OS lock on a file beside the log;
 * the memory store keeps them in memory, shared by connected writers; a PostgreSQL store would
 * use an advisory lock held by its connection.
 */
export interface Leases {
  /** Take the lease of `agent` in `session`, or say who holds it. Never waits. */
  lease(session: string, agent: string): Promise<LeaseOutcome>;
  /**
   * Who holds the lease of `agent` in `session` now (unexpired), or undefined when nobody does.
   * Only a store several machines share has it (PostgreSQL): what a host of teammates and a lead
   * placing one on it check each other's liveness with.
   */
  holder?(session: string, agent: string): Promise<string | undefined>;
}
