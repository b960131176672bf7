import { openPool, type Pool, type Queryable, rows as query, transaction } from "./_pg.ts";
import { Listener } from "./_listener.ts";
import { Delivery } from "../_delivery.ts";
import { encodeEvents } from "../_encode.ts";
import { decidedEvents } from "../_decided_events.ts";
import { decodeLine, type LogFormat } from "../_decode_line.ts";
import { abortableSleep } from "../abortable_sleep.ts";
import { knownEventTypes } from "../parse_envelope.ts";
import { createRedactor, type Redactor } from "../redact.ts";
import { type StartPoint, StartPointError } from "../start_point.ts";
import type {
  AppendDecision,
  AppendOptions,
  EventListener,
  EventStore,
  LeaseOutcome,
  Leases,
  LogReader,
  ReadRange,
} from "../store.ts";
import type { Envelope, NewEvent } from "../event_types.ts";
import { UPCASTERS, type UpcasterTable } from "../upcast.ts";
import { ensureTables, type LogTables, logTables } from "./_schema.ts";
import { isConnectionLost } from "./_connection_lost.ts";
import { parsePostgresUrl, type PostgresLocation } from "./store_url.ts";
import { PostgresLeases } from "./_leases.ts";
import { insertLines, type RowOf } from "./_insert_lines.ts";
import { lineBytesUpTo, SnapshotTable } from "./snapshot_table.ts";

/** How to open a {@link PostgresStore}. */
export interface PostgresStoreOptions {
  /** Time source for `ts` stamps. */
  clock: () => Date;
  /** Values that must never reach the log; see `createRedactor`. */
  secrets?: readonly string[];
  /** Receives every event in seq order: read at open, caught up, or appended. */
  onEvent?: EventListener;
  /** Receives one-line reports, such as a lost connection being retried. */
  onNotice?: (message: string) => void;
  /** Upcaster steps for old lines; default: the shipped `UPCASTERS`. */
  upcasters?: UpcasterTable;
  /** Event types of mechanisms declared outside rein that the log may hold. */
  eventTypes?: readonly string[];
  /**
   * Deliver only the events after `start.seq` (a snapshot's place, its offset: where that event's
   * line ends in the log's JSONL form, counted by the server when not given).
   */
  start?: StartPoint;
  /**
   * How long an append, catch-up or open keeps retrying while the server cannot be reached (it
   * restarts, the network is cut), in milliseconds; default 120000.
   */
  retryMs?: number;
  /** How long a lease outlives its holder's last renewal, in milliseconds; default 15000. */
  leaseMs?: number;
}

/** The rows read at once by a catch-up or a read. */
const PAGE = 2000;

/**
 * Open the PostgreSQL log named by `store` (`postgres://…?log=NAME`, see `parsePostgresUrl`),
 * creating its tables when missing, read it from `options.start` (or from its first event) into
 * `onEvent`, and listen for other writers' appends. Throws `StartPointError` for a start point
 * past the log's end, and what the server or a damaged row gives; the connections are closed
 * again in that case.
 */
export function openPostgresStore(
  store: string,
  options: PostgresStoreOptions,
): Promise<PostgresStore> {
  return PostgresStore.open(parsePostgresUrl(store), options);
}

/**
 * The event log as one table of a PostgreSQL database, shared by every process (on any machine)
 * of a workspace (design.md §14), with the JSONL store's guarantees:
 * - One total order: an append takes the log's advisory lock in its transaction, reads what
 *   others committed since (delivering it, so a decision sees caught-up state), numbers its batch
 *   from the highest `seq` and inserts it; the lock is held until commit, so seqs are gapless
 *   under any number of writers, and a transaction that fails leaves no row.
 * - Each row keeps the envelope's JSONL line exactly, so the log exports byte for byte.
 * - Wake-ups without polling: each append NOTIFYs the log's channel with its last seq; a store
 *   LISTENs and catches up when told (and after its listening connection comes back).
 * - Faults: while the server cannot be reached an append waits and retries (up to `retryMs`). An
 *   append whose commit was cut off looks, under the lock, for its first row: found (with its
 *   own writer id) it committed; not found it did not, and is tried again on caught-up state.
 *   Nothing is guessed, lost or doubled.
 * - Leases are rows with an expiry, renewed while held: a dead holder's lease lapses.
 * Calls on one object run one at a time; `sync` has nothing to do (a commit is durable).
 */
export class PostgresStore implements EventStore, LogReader, Leases {
  /** Where the log is, as opened. */
  readonly location: PostgresLocation;
  readonly #sql: Pool;
  readonly #tables: LogTables;
  readonly #clock: () => Date;
  readonly #redact: Redactor;
  readonly #notice: (message: string) => void;
  readonly #format: LogFormat;
  readonly #retryMs: number;
  readonly #leases: PostgresLeases;
  #listeners: EventListener[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #lastSeq = 0;
  /** Where event `#lastSeq`'s line ends in the log's JSONL form (its export), in bytes. */
  #offset = 0;
  #closed = false;
  readonly #listener: Listener;
  /**
   * Called on a NOTIFY of news, on a (re)started LISTEN, after an append or a catch-up that read
   * events, and at close: pending waits look again.
   */
  readonly #wakers = new Set<() => void>();
  /** Called on every NOTIFY and at close: followers read again. */
  readonly #followers = new Set<() => void>();
  /** Counts the wake-ups, so a follower can tell whether one came while it read. */
  #wakes = 0;
  /** Whether a lost connection was already reported (once per outage). */
  #reported = false;

  private constructor(location: PostgresLocation, options: PostgresStoreOptions) {
    this.location = location;
    this.#tables = logTables(location.log);
    this.#clock = options.clock;
    this.#redact = createRedactor(options.secrets ?? []);
    this.#notice = options.onNotice ?? (() => {});
    this.#format = {
      upcasters: options.upcasters ?? UPCASTERS,
      knownTypes: knownEventTypes(options.eventTypes),
    };
    this.#retryMs = options.retryMs ?? 120_000;
    if (options.onEvent) this.#listeners.push(options.onEvent);
    this.#sql = openPool(location.url, 4);
    this.#listener = new Listener(
      location.url,
      this.#tables.channel,
      (payload) => this.#notified(Number(payload)),
      () => this.#wake(),
    );
    this.#leases = new PostgresLeases(this.#sql, this.#tables, options.leaseMs ?? 15_000);
  }

  /** Same as {@link openPostgresStore}, for a parsed location. */
  static async open(
    location: PostgresLocation,
    options: PostgresStoreOptions,
  ): Promise<PostgresStore> {
    const store = new PostgresStore(location, options);
    try {
      await store.#retrying("open", async () => {
        await ensureTables(store.#sql, store.#tables);
        if (options.start) await store.#startAt(options.start);
      });
      await store.#listener.start();
      await store.#serialized(() => store.#retrying("read", () => store.#catchUpOnce()));
      return store;
    } catch (error) {
      await store.#listener.close();
      await store.#sql.end().catch(() => {});
      throw error;
    }
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  /**
   * The last event read or appended, and where its line ends in the log's JSONL form (the byte
   * offset a JSONL store of the same log would give): a snapshot's place.
   */
  get position(): { seq: number; offset: number } {
    return { seq: this.#lastSeq, offset: this.#offset };
  }

  /**
   * The snapshots this machine (`machine`, its key's id) keeps of the log, in the log's snapshot
   * table, through this store's connections.
   */
  snapshotTable(machine: string): SnapshotTable {
    return new SnapshotTable(this.#sql, this.#tables, machine);
  }

  append(events: readonly NewEvent[], options: AppendOptions = {}): Promise<Envelope[]> {
    return this.#serialized(() => {
      this.#assertOpen("append to");
      if (events.length === 0) return Promise.resolve([]);
      return this.#appendRetrying(() => events, options);
    });
  }

  appendDecided(decide: AppendDecision, options: AppendOptions = {}): Promise<Envelope[]> {
    return this.#serialized(() => {
      this.#assertOpen("append to");
      return this.#appendRetrying(decide, options);
    });
  }

  catchUp(): Promise<Envelope[]> {
    return this.#serialized(() => {
      this.#assertOpen("catch up on");
      return this.#retrying("catch up", () => this.#catchUpOnce());
    });
  }

  /**
   * Wait until the log holds an event past `afterSeq`: woken by the log's NOTIFY (another
   * writer's commit), by this store's own appends, by any catch-up of this store that reads
   * events (whoever called it: an append's NOTIFY that comes after such a catch-up read its rows
   * is no news, and wakes no wait), and when the listening connection comes back (what was
   * appended meanwhile is caught up then). `pollMs` is ignored: nothing polls.
   */
  waitForAppend(afterSeq: number, signal: AbortSignal, _pollMs?: number): Promise<Envelope[]> {
    if (signal.aborted) return Promise.reject(signal.reason);
    try {
      this.#assertOpen("wait on");
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      const caught: Envelope[] = [];
      let again = true;
      let looking = false;
      let done = false;
      const finish = (error: unknown, ok: boolean) => {
        if (done) return;
        done = true;
        this.#wakers.delete(look);
        signal.removeEventListener("abort", onAbort);
        if (ok) resolve(caught);
        else reject(error);
      };
      const onAbort = () => finish(signal.reason, false);
      const look = () => {
        again = true;
        if (looking || done) return;
        looking = true;
        void (async () => {
          while (again && !done) {
            again = false;
            try {
              this.#assertOpen("wait on");
              if (this.#lastSeq <= afterSeq) caught.push(...await this.catchUp());
            } catch (error) {
              finish(error, false);
              return;
            }
            if (this.#lastSeq > afterSeq) finish(undefined, true);
          }
          looking = false;
        })();
      };
      this.#wakers.add(look);
      signal.addEventListener("abort", onAbort, { once: true });
      look();
    });
  }

  /** Nothing to flush: a committed append is durable. Throws when the store is closed. */
  sync(): Promise<void> {
    return this.#serialized(() => {
      this.#assertOpen("sync");
      return Promise.resolve();
    });
  }

  subscribe(listener: EventListener): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /** The events of `range` as the table holds them when each page is read. */
  async *read(range: ReadRange = {}): AsyncGenerator<Envelope, void, undefined> {
    this.#assertOpen("read");
    const { fromSeq = 1, toSeq, session } = range;
    let after = Math.max(1, fromSeq) - 1;
    const last = toSeq ?? Number.MAX_SAFE_INTEGER;
    while (after < last) {
      const rows = await this.#page(after, last, session);
      for (const row of rows) {
        const event = this.#decode(row);
        after = event.seq;
        yield event;
      }
      if (rows.length < PAGE) return;
    }
  }

  /**
   * The JSONL lines (each with its `\n`) of the events from `fromSeq` to `toSeq`, exactly as the
   * table holds them (as `exportLines` gives them), each checked as a read checks it.
   */
  async *readLines(fromSeq: number, toSeq: number): AsyncGenerator<string, void, undefined> {
    this.#assertOpen("read");
    let after = Math.max(1, fromSeq) - 1;
    while (after < toSeq) {
      const rows = await this.#retrying("read", () => this.#page(after, toSeq));
      for (const row of rows) {
        if (Number(row.seq) !== after + 1) {
          throw new Error(
            `Cannot read ${this.location.display}: expected event ${after + 1}, found ${row.seq}`,
          );
        }
        this.#decode(row);
        after++;
        yield `${row.line}\n`;
      }
      if (rows.length < PAGE) return;
    }
  }

  /**
   * The events from `fromSeq` on, then each new one as it is committed (woken by NOTIFY), until
   * `signal` aborts. Throws when the table no longer holds the next event although a later one
   * is there (the log was replaced under the follower), and when the store is closed.
   */
  async *followLog(
    fromSeq: number,
    signal: AbortSignal,
  ): AsyncGenerator<Envelope, void, undefined> {
    this.#assertOpen("follow");
    let next = Math.max(1, fromSeq);
    while (!signal.aborted) {
      const wakes = this.#wakes;
      const rows = await this.#retrying("follow", () => this.#page(next - 1, Infinity));
      for (const row of rows) {
        if (signal.aborted) return;
        if (Number(row.seq) !== next) {
          throw new Error(
            `Cannot follow ${this.location.display}: expected event ${next}, found ` +
              `${row.seq} (the log was replaced)`,
          );
        }
        yield this.#decode(row);
        next++;
      }
      if (rows.length === 0 && wakes === this.#wakes) await this.#woken(signal);
      this.#assertOpen("follow");
    }
  }

  /**
   * Take the lease of `agent` in `session`: a row naming this store as holder, renewed while
   * held, lapsing `leaseMs` after its holder stops renewing it (a dead process's lease lapses).
   */
  async lease(session: string, agent: string): Promise<LeaseOutcome> {
    this.#assertOpen("lease a session of");
    return await this.#retrying("lease", () => this.#leases.take(session, agent));
  }

  /** Who holds the lease of `agent` in `session` now (an unexpired row), or undefined. */
  async holder(session: string, agent: string): Promise<string | undefined> {
    this.#assertOpen("read a lease of");
    return await this.#retrying("lease", () => this.#leases.holder(session, agent));
  }

  /** Stop listening, give up the leases and close the connections. Later calls throw. */
  close(): Promise<void> {
    return this.#serialized(async () => {
      if (this.#closed) return;
      this.#closed = true;
      this.#wake();
      await this.#leases.releaseAll().catch(() => {});
      await this.#listener.close();
      await this.#sql.end().catch(() => {});
    });
  }

  /** In the queue: append on caught-up state, retrying while the server cannot be reached. */
  async #appendRetrying(decide: AppendDecision, options: AppendOptions): Promise<Envelope[]> {
    const envelopes = await this.#retrying("append", () => this.#appendOnce(decide));
    void options;
    this.#reported = false;
    const delivery = new Delivery(this.#listeners);
    for (const envelope of envelopes) delivery.deliver(envelope);
    this.#wake();
    delivery.rethrow();
    return envelopes;
  }

  /**
   * One attempt: in a transaction holding the log's lock, catch up, decide, insert, notify. When
   * the connection is lost after the insert, whether it committed is looked up under the lock.
   */
  async #appendOnce(decide: AppendDecision): Promise<Envelope[]> {
    const writer = crypto.randomUUID();
    let batch: Envelope[] = [];
    let bytes = 0;
    try {
      await transaction(this.#sql, async (tx) => {
        await this.#catchUpWith(tx);
        const events = decidedEvents(decide, this.#lastSeq);
        if (events.length === 0) return;
        const ts = this.#clock().toISOString();
        const encoded = encodeEvents(
          events,
          this.#lastSeq + 1,
          ts,
          this.#redact,
          this.#format.knownTypes,
        );
        batch = encoded.envelopes;
        bytes = new TextEncoder().encode(encoded.text).length;
        await insertLines(tx, this.#tables, encoded.text, batch, writer);
      }, this.#tables.lock);
    } catch (error) {
      if (batch.length === 0 || !isConnectionLost(error)) throw error;
      if (!await this.#committed(batch[0]!.seq, writer)) throw error;
    }
    if (batch.length > 0) {
      this.#lastSeq = batch.at(-1)!.seq;
      this.#offset += bytes;
    }
    return batch;
  }

  /**
   * Whether the append of `writer`, whose first event is `seq`, committed: looked up under the
   * log's lock (so a commit still under way has finished), retrying while the server is away.
   */
  #committed(seq: number, writer: string): Promise<boolean> {
    return this.#retrying("look up the outcome of an append", async () => {
      const found = await transaction(
        this.#sql,
        (tx) =>
          query<{ writer: string }>(
            tx,
            `select writer::text as writer from ${this.#tables.events} where seq = $1`,
            [seq],
          ),
        this.#tables.lock,
      );
      const committed = found[0]?.writer === writer;
      this.#notice(
        `The connection to ${this.location.display} was lost while an append committed; ` +
          `event ${seq} ${committed ? "is in the log" : "is not, so the append is tried again"}`,
      );
      return committed;
    });
  }

  /** Read and deliver what others committed after `#lastSeq`. */
  async #catchUpOnce(): Promise<Envelope[]> {
    return await this.#catchUpWith(this.#sql);
  }

  async #catchUpWith(sql: Queryable): Promise<Envelope[]> {
    const caught: Envelope[] = [];
    const delivery = new Delivery(() => this.#listeners);
    for (;;) {
      const rows = await this.#pageWith(sql, this.#lastSeq, Infinity);
      for (const row of rows) {
        const event = this.#decode(row);
        if (event.seq !== this.#lastSeq + 1) {
          throw new Error(
            `Cannot catch up on ${this.location.display}: expected event ${this.#lastSeq + 1}, ` +
              `found ${event.seq}`,
          );
        }
        this.#lastSeq = event.seq;
        this.#offset += Number(row.bytes) + 1;
        caught.push(event);
        delivery.deliver(event);
      }
      if (rows.length < PAGE) break;
    }
    // The log is past where pending waits began: they look again (its NOTIFY is no news now).
    if (caught.length > 0) this.#wakeWaits();
    delivery.rethrow();
    return caught;
  }

  #page(after: number, last: number, session?: string): Promise<RowOf[]> {
    return this.#pageWith(this.#sql, after, last, session);
  }

  /** Up to {@link PAGE} rows with `after` < seq ≤ `last` (of `session`), in seq order. */
  async #pageWith(
    sql: Queryable,
    after: number,
    last: number,
    session?: string,
  ): Promise<RowOf[]> {
    const bound = Number.isFinite(last) ? last : Number.MAX_SAFE_INTEGER;
    const where = session === undefined ? "" : " and session = $3";
    const parameters = session === undefined ? [after, bound] : [after, bound, session];
    return await query<RowOf>(
      sql,
      `select seq, line, octet_length(line)::text as bytes from ${this.#tables.events}
        where seq > $1 and seq <= $2${where} order by seq limit ${PAGE}`,
      parameters,
    );
  }

  #decode(row: RowOf): Envelope {
    return decodeLine(row.line, this.location.display, Number(row.seq), this.#format);
  }

  /** At open: the log must hold `point.seq`; the events up to it are the caller's already. */
  async #startAt(point: StartPoint): Promise<void> {
    const [row] = await query<{ last: string | null }>(
      this.#sql,
      `select max(seq)::text as last from ${this.#tables.events}`,
    );
    const held = Number(row?.last ?? 0);
    if (!Number.isInteger(point.seq) || point.seq < 0 || point.seq > held) {
      throw new StartPointError(
        `Cannot start reading ${this.location.display} after seq ${point.seq}: it holds ` +
          `${held} events`,
      );
    }
    this.#lastSeq = point.seq;
    this.#offset = point.offset ?? await lineBytesUpTo(this.#sql, this.#tables, point.seq);
  }

  /** A NOTIFY of an append ending at `seq`: followers look again, and waits if it is news. */
  #notified(seq: number): void {
    if (Number.isFinite(seq) && seq <= this.#lastSeq) this.#wakeFollowers();
    else this.#wake();
  }

  #wake(): void {
    this.#wakeWaits();
    this.#wakeFollowers();
  }

  #wakeWaits(): void {
    for (const waker of [...this.#wakers]) waker();
  }

  #wakeFollowers(): void {
    this.#wakes++;
    for (const follower of [...this.#followers]) follower();
  }

  /** Resolve on the next wake-up, or when `signal` aborts. */
  #woken(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const wake = () => {
        this.#followers.delete(wake);
        signal.removeEventListener("abort", wake);
        resolve();
      };
      this.#followers.add(wake);
      signal.addEventListener("abort", wake, { once: true });
    });
  }

  /**
   * Run `operation`, and again (waiting longer each time, up to a second) while it fails because
   * the server cannot be reached, for at most `retryMs`; reported once per outage.
   */
  async #retrying<T>(action: string, operation: () => Promise<T>): Promise<T> {
    const started = Date.now();
    for (let attempt = 0;; attempt++) {
      try {
        const result = await operation();
        this.#reported = false;
        return result;
      } catch (error) {
        if (!isConnectionLost(error) || this.#closed) throw error;
        if (Date.now() - started > this.#retryMs) {
          throw new Error(
            `Cannot ${action} ${this.location.display}: the server could not be reached for ` +
              `${Math.round(this.#retryMs / 1000)} s`,
            { cause: error },
          );
        }
        if (!this.#reported) {
          this.#reported = true;
          this.#notice(
            `Lost the connection to ${this.location.display} (${describe(error)}); retrying`,
          );
        }
        await abortableSleep(Math.min(1000, 50 * 2 ** attempt), new AbortController().signal);
      }
    }
  }

  #serialized<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(operation);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  #assertOpen(action: string): void {
    if (this.#closed) {
      throw new Error(`Cannot ${action} ${this.location.display}: the store is closed`);
    }
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? `${code}: ${error.message}` : error.message;
}
