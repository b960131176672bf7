import type { Envelope, NewEvent } from "./event_types.ts";

/** Options for {@link EventStore.append}. */
export interface AppendOptions {
  /** Flush to disk (`syncData`) before returning. Use at turn boundaries and after tool intents. */
  sync?: boolean;
}

/** Called once per event, in `seq` order: events read from disk, caught up, and appended. */
export type EventListener = (event: Envelope) => void;

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
  /** Deliver to listeners anything other writers appended since the last read; returns it. */
  catchUp(): Promise<Envelope[]>;
  /** Flush written data to disk. Throws (and poisons the store) on failure. */
  sync(): Promise<void>;
  /** Register a listener for every later event; returns a function that removes it. */
  subscribe(listener: EventListener): () => void;
  /** Release the file. Later appends throw. */
  close(): Promise<void>;
}
