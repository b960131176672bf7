import { dirname } from "./posix_path.ts";
import { Delivery } from "./_delivery.ts";
import { encodeEvents } from "./_encode.ts";
import { fileIdentity, pathMayHaveChanged } from "./_log_files.ts";
import { type FollowedLog, followPath } from "./_follow_path.ts";
import { scanLog } from "./_scan_log.ts";
import { repairTornTail } from "./_repair_torn_tail.ts";
import type { LogFormat } from "./_decode_line.ts";
import { LogCopy } from "./_log_copy.ts";
import { eventsRead, type Rescue, rescueAndStop } from "./_rescue.ts";
import { LogCorruptionError } from "./errors.ts";
import { knownEventTypes } from "./parse_envelope.ts";
import { createRedactor, type Redactor } from "./redact.ts";
import { decidedEvents } from "./_decided_events.ts";
import { pollForAppend } from "./_poll_for_append.ts";
import type {
  AppendDecision,
  AppendOptions,
  EventListener,
  EventStore,
  Lease,
  LeaseOutcome,
  Leases,
  LogReader,
  ReadRange,
} from "./store.ts";
import { openLogReader } from "./jsonl_reader.ts";
import { leaseFile } from "./lease_file.ts";
import type { Envelope, NewEvent } from "./event_types.ts";
import { UPCASTERS, type UpcasterTable } from "./upcast.ts";
import { offsetOfSeq, type StartPoint, StartPointError, startPointProblem } from "./start_point.ts";

/** How to open a {@link JsonlStore}. */
export interface JsonlStoreOptions {
  /** Time source for `ts` stamps and backup names. */
  clock: () => Date;
  /** Values that must never reach the file; see `createRedactor`. */
  secrets?: readonly string[];
  /** Receives every event in seq order: read at open, caught up, or appended. */
  onEvent?: EventListener;
  /**
   * Receives one-line reports of repairs, such as a torn tail that was cut off or a deleted log
   * that was restored.
   */
  onNotice?: (message: string) => void;
  /** Upcaster steps for old lines; default: the shipped `UPCASTERS`. */
  upcasters?: UpcasterTable;
  /** Event types of mechanisms declared outside rein that the log may hold. */
  eventTypes?: readonly string[];
  /**
   * Read from here instead of from the first byte (a snapshot's place, whose state the caller
   * has): `onEvent` gets the events after `start.seq` only. Checked under the lock before
   * reading; a point that does not hold throws {@link StartPointError}. A point without its byte
   * offset is found by reading (and checking) the lines up to it, which are not delivered.
   */
  start?: StartPoint;
  /**
   * Called as reads go (at open included), after each chunk of lines (about 1 MiB), with the
   * seq and byte offset just past its last line: places to start a later read from.
   */
  onProgress?: (at: { seq: number; offset: number }) => void;
}

/**
 * Open (creating it and its parent directories if missing) the JSONL log at `path`, read it
 * (from `options.start`, or from its first byte) under an exclusive lock while feeding
 * `onEvent`, and repair a torn last line (backup beside the file, truncate, one notice). Throws
 * `LogCorruptionError` for damage before the last line, `LogVersionError` for a line written by
 * a newer rein and `StartPointError` for a start point that does not hold; the file is closed
 * again in that case.
 */
export function openJsonlStore(path: string, options: JsonlStoreOptions): Promise<JsonlStore> {
  return JsonlStore.open(path, options);
}

/**
 * The event log as a JSONL file shared by every process of a workspace (design.md §1). Every
 * read, catch-up and append holds an exclusive `Deno.FsFile.lock`; calls on one object run one
 * at a time. `waitForAppend` polls with one `stat` of `path` and takes the lock only when the
 * file changed. A failed sync (or an append whose partial write cannot be undone) is fatal: every
 * later append and sync throws. Open it with {@link openJsonlStore}.
 *
 * Every append and catch-up first checks, under the lock, that `path` still names the open file
 * (device and inode; one `stat`), because a tool run (`git clean -fdx`, `rm -rf .rein`, a file
 * moved over it) can remove the log while the store holds it:
 * - Path gone: the open file still holds every byte, so it is copied to a new file that is
 *   linked into place (never over a file that appeared meanwhile), the store continues on the
 *   restored file, and `onNotice` reports it once.
 * - Path names a file that begins with all of the open file's content: that is the restored log
 *   (or a copy of it), so the store follows it, catches up, and reports it once.
 * - Path names any other file: the store writes a rescue copy of the open file beside it
 *   (`<name>.rescued-<time>`), leaves the new file untouched and throws; from then on every
 *   append, catch-up and sync throws that error.
 *
 * With several processes (or stores) on the log, restoring is serialized by the lock on the old
 * file: the first one to append or catch up (a waiting store catches up too) restores, and the
 * others find the restored file, which holds all of the old content, and follow it. A writer that
 * opened the path after the deletion and before the restore starts a new log; the older writers
 * then meet a different file and stop with a rescue copy, so nothing is overwritten or lost, but
 * they must be restarted. A torn tail in the old file that a follower cut off before another
 * writer looked also makes that writer stop.
 * Where the platform reports no file number (`FileInfo.ino` is null) the check is skipped.
 *
 * After open, what a catch-up reads was appended by someone else, and is accepted only as rein's
 * lock-and-append path writes it. Otherwise the store writes the events it had read to a rescue
 * copy (`<name>.rescued-<time>`, from a copy of the bytes it read and wrote that it keeps in
 * memory, leaves the file as it is and stops, as above. A store opened at a start point keeps
 * (and rescues) only the lines after it: the lines before it are the snapshot's, and a log cut
 * short under the store loses them unless the file still has them; a store opened at the first
 * byte keeps as much memory as the log is large):
 * - The file is shorter than what was read (`: > events.jsonl`, a truncating write through a
 *   hard link); the error names both sizes.
 * - A complete line fails the envelope schema (`parseEnvelope`) or its `seq` is not exactly one
 *   past the last event (forged, or the file was rewritten). It is never delivered (the lines
 *   before it are); the error names the line and what is wrong with it.
 * An unterminated last line is an interrupted append and is repaired as at open; a line written
 * by a newer rein (`LogVersionError`) is refused on every call without stopping the store.
 * What remains possible: a well-formed line with the next `seq`, appended by any process that
 * can write the file, looks exactly like a teammate's (the lock is advisory and a line carries no
 * proof of its writer) and is folded; a rewrite of lines already read that keeps the file at
 * least as long is not seen until the log is read again. Hence `.rein/` must be read-only to the
 * tools the model runs.
 */
export class JsonlStore implements EventStore, LogReader, Leases {
  /** The log file, as given to {@link openJsonlStore}. */
  readonly path: string;
  #file: Deno.FsFile;
  /** `dev:ino` of `#file`; undefined where the platform reports no file number. */
  #identity: string | undefined;
  readonly #clock: () => Date;
  readonly #redact: Redactor;
  readonly #notice: (message: string) => void;
  readonly #format: LogFormat;
  readonly #encoder = new TextEncoder();
  #listeners: EventListener[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #end = 0;
  #lastSeq = 0;
  /** seq of the last line before `#end`: `#lastSeq` runs ahead of it while a chunk is folded. */
  #endSeq = 0;
  /** seq and offset of the first line the rescue copy holds (a start point or a snapshot's). */
  #firstSeq = 1;
  #copyStart = 0;
  #closed = false;
  #fatal: Error | undefined;
  /** Why the store stopped (log replaced, shrunk, or given a foreign line); thrown by every call. */
  #stopped: Error | undefined;
  /** The bytes read and written, for a rescue copy when the file itself lost them. */
  readonly #copy = new LogCopy();
  #followed: FollowedLog | undefined;
  readonly #progress: ((at: { seq: number; offset: number }) => void) | undefined;
  /** Reads the file without the lock, as any reader may. */
  readonly #reader: LogReader;
  /** The leases taken through this store and not released: closing it releases them. */
  readonly #leases = new Set<Lease>();

  private constructor(
    path: string,
    file: Deno.FsFile,
    identity: string | undefined,
    options: JsonlStoreOptions,
  ) {
    this.path = path;
    this.#file = file;
    this.#identity = identity;
    this.#clock = options.clock;
    this.#redact = createRedactor(options.secrets ?? []);
    this.#notice = options.onNotice ?? (() => {});
    this.#format = {
      upcasters: options.upcasters ?? UPCASTERS,
      knownTypes: knownEventTypes(options.eventTypes),
    };
    if (options.onEvent) this.#listeners.push(options.onEvent);
    this.#progress = options.onProgress;
    this.#reader = openLogReader(path, {
      ...(options.upcasters === undefined ? {} : { upcasters: options.upcasters }),
      ...(options.eventTypes === undefined ? {} : { eventTypes: options.eventTypes }),
    });
  }

  /** Same as {@link openJsonlStore}. */
  static async open(path: string, options: JsonlStoreOptions): Promise<JsonlStore> {
    await Deno.mkdir(dirname(path), { recursive: true });
    const file = await Deno.open(path, { read: true, append: true, create: true });
    try {
      const store = new JsonlStore(path, file, fileIdentity(await file.stat()), options);
      await store.#locked(async () => {
        if (options.start) await store.#startAt(options.start);
        await store.#readTail(false);
      });
      return store;
    } catch (error) {
      file.close();
      throw error;
    }
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  /**
   * Say that a snapshot now holds the state up to event `at.seq`, whose line ends at byte
   * `at.offset`: the copy kept for a rescue drops the lines up to it, so a rescue copy then holds
   * the lines after it. Ignored for a place before what the copy holds or past what was read.
   */
  snapshotTaken(at: { seq: number; offset: number }): void {
    if (at.seq < this.#firstSeq || at.offset > this.#end) return;
    this.#copy.dropFirst(at.offset - this.#copyStart);
    this.#copyStart = at.offset;
    this.#firstSeq = at.seq + 1;
  }

  /**
   * The end of the last line read or written: its seq, its byte offset (just past its `\n`),
   * for a snapshot of the state folded up to that seq. Synchronous reads of it and of the
   * listeners' state agree when `seq` is theirs.
   */
  get position(): { seq: number; offset: number } {
    return { seq: this.#endSeq, offset: this.#end };
  }

  append(events: readonly NewEvent[], options: AppendOptions = {}): Promise<Envelope[]> {
    return this.#serialized(() => {
      this.#assertWritable("append to");
      if (events.length === 0) return Promise.resolve([]);
      return this.#appendLocked(() => events, options);
    });
  }

  appendDecided(decide: AppendDecision, options: AppendOptions = {}): Promise<Envelope[]> {
    return this.#serialized(() => {
      this.#assertWritable("append to");
      return this.#appendLocked(decide, options);
    });
  }

  catchUp(): Promise<Envelope[]> {
    return this.#serialized(() => {
      this.#assertRunning("catch up on");
      return this.#locked(async () => {
        await this.#followPath();
        return this.#readOthers(true);
      });
    });
  }

  waitForAppend(afterSeq: number, signal: AbortSignal, pollMs = 50): Promise<Envelope[]> {
    const log = { lastSeq: () => this.#lastSeq, poll: () => this.#poll() };
    return pollForAppend(log, afterSeq, signal, pollMs);
  }

  sync(): Promise<void> {
    return this.#serialized(() => {
      this.#assertWritable("sync");
      return this.#syncData();
    });
  }

  subscribe(listener: EventListener): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /**
   * The events of `range`, read from the file without the lock as any reader reads it (see
   * `openLogReader`): what other writers appended included, a torn last line left out.
   */
  read(range: ReadRange = {}): AsyncIterable<Envelope> {
    this.#assertOpen("read");
    return this.#reader.read(range);
  }

  /**
   * Follow the file from `fromSeq` on without the lock, as a read-only follower does (see
   * `followJsonlLog`); it goes on after the store is closed, until `signal` aborts.
   */
  followLog(fromSeq: number, signal: AbortSignal): AsyncIterable<Envelope> {
    this.#assertOpen("follow");
    return this.#reader.followLog(fromSeq, signal);
  }

  /**
   * Take the lease of `agent` in `session`: an OS lock on a file beside the log (see
   * `leaseFile`), held until released, the store closed, or the process gone.
   */
  async lease(session: string, agent: string): Promise<LeaseOutcome> {
    this.#assertOpen("lease a session of");
    const outcome = await leaseFile(this.path, session, agent);
    if (!outcome.held) return outcome;
    const { lease } = outcome;
    if (this.#closed) {
      lease.release();
      this.#assertOpen("lease a session of");
    }
    const leases = this.#leases;
    leases.add(lease);
    return {
      held: true,
      lease: {
        session,
        agent,
        release() {
          leases.delete(lease);
          lease.release();
        },
      },
    };
  }

  close(): Promise<void> {
    return this.#serialized(() => {
      if (!this.#closed) {
        this.#closed = true;
        this.#file.close();
        for (const lease of this.#leases) lease.release();
        this.#leases.clear();
      }
      return Promise.resolve();
    });
  }

  /** In the queue: under the lock catch up, decide and write; then deliver what was written. */
  async #appendLocked(decide: AppendDecision, options: AppendOptions): Promise<Envelope[]> {
    const envelopes = await this.#locked(async () => {
      await this.#followPath();
      await this.#readOthers(false);
      const events = decidedEvents(decide, this.#lastSeq);
      if (events.length === 0) return [];
      const ts = this.#clock().toISOString();
      const batch = encodeEvents(
        events,
        this.#lastSeq + 1,
        ts,
        this.#redact,
        this.#format.knownTypes,
      );
      await this.#writeAll(this.#encoder.encode(batch.text));
      this.#lastSeq += batch.envelopes.length;
      this.#endSeq = this.#lastSeq;
      if (options.sync === true) await this.#syncData();
      return batch.envelopes;
    });
    const delivery = new Delivery(this.#listeners);
    for (const envelope of envelopes) delivery.deliver(envelope);
    delivery.rethrow();
    return envelopes;
  }

  /** One poll of {@link waitForAppend}: catch up only when a `stat` says the log changed. */
  #poll(): Promise<Envelope[]> {
    this.#assertRunning("wait on");
    const changed = pathMayHaveChanged(this.path, this.#end, this.#identity);
    return changed ? this.catchUp() : Promise.resolve([]);
  }

  #serialized<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(operation);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  /** Run `operation` holding the lock; if it switches files, the new file's lock is released. */
  async #locked<T>(operation: () => Promise<T>): Promise<T> {
    await this.#file.lock(true);
    try {
      return await operation();
    } finally {
      // Sync on purpose, as the size check and the write below: each is a few microseconds on a
      // local file, and an async call costs a thread-pool round trip, several per append.
      this.#file.unlockSync();
    }
  }

  /** Under the lock: make sure `path` still names the open file; see the class docs. */
  async #followPath(): Promise<void> {
    if (this.#stopped !== undefined) throw this.#stopped;
    if (this.#identity === undefined) return;
    this.#followed ??= {
      path: this.path,
      file: () => this.#file,
      identity: () => this.#identity ?? "",
      switchTo: (file) => this.#switchTo(file),
      stamp: () => this.#stamp(),
      notice: this.#notice,
      stop: (how) => this.#stop(how),
    };
    await followPath(this.#followed);
  }

  /**
   * Under the lock, after open: read what other writers appended. A line that is not the next
   * event, or a file shorter than what was read, stops the store with a rescue copy of the
   * events read; see the class docs.
   */
  async #readOthers(collect: boolean): Promise<Envelope[]> {
    try {
      return await this.#readTail(collect);
    } catch (error) {
      if (!(error instanceof LogCorruptionError)) throw error;
      throw await this.#stopWithCopy(
        `Line ${error.line} of the event log "${this.path}", appended while rein was running, ` +
          `is not the next event (${error.reason}); stopping without reading it, so nothing ` +
          `is built on it`,
        error,
      );
    }
  }

  /** Stop with a rescue copy of what was read (the file may no longer hold it); returns why. */
  #stopWithCopy(stopped: string, cause?: unknown): Promise<Error> {
    return this.#stop({
      stopped,
      holds: eventsRead(this.#lastSeq, this.#firstSeq),
      otherwise: "the memory of this process",
      save: (target) => this.#copy.writeTo(target),
      cause,
    });
  }

  async #stop(how: Omit<Rescue, "path" | "stamp">): Promise<Error> {
    this.#stopped = await rescueAndStop({ ...how, path: this.path, stamp: this.#stamp() });
    return this.#stopped;
  }

  /** Make `file` (same content up to `#end`) the store's file, locked; the old one is closed. */
  async #switchTo(file: Deno.FsFile): Promise<void> {
    let identity: string | undefined;
    try {
      await file.lock(true);
      identity = fileIdentity(await file.stat());
    } catch (error) {
      file.close();
      throw error;
    }
    const old = this.#file;
    this.#file = file;
    this.#identity = identity;
    old.close();
  }

  #stamp(): string {
    return this.#clock().toISOString().replaceAll(":", "-");
  }

  /** Under the lock, at open: continue from `point`, after checking that it holds. */
  async #startAt(point: StartPoint): Promise<void> {
    const offset = point.offset ??
      await offsetOfSeq(this.#file, this.path, point.seq, this.#format);
    const problem = typeof offset === "string"
      ? offset
      : await startPointProblem(this.#file, this.path, { ...point, offset }, this.#format);
    if (problem !== undefined || typeof offset === "string") {
      throw new StartPointError(
        `Cannot start reading "${this.path}" after seq ${point.seq}: ${problem}`,
      );
    }
    this.#end = offset;
    this.#lastSeq = point.seq;
    this.#firstSeq = point.seq + 1;
    this.#copyStart = offset;
    this.#endSeq = point.seq;
  }

  /** Under the lock: read and deliver what follows `#end`; repair a torn last line. */
  async #readTail(collect: boolean): Promise<Envelope[]> {
    const caught: Envelope[] = [];
    const size = this.#file.statSync().size;
    if (size === this.#end) return caught;
    if (size < this.#end) {
      throw await this.#stopWithCopy(
        `The event log "${this.path}" shrank from ${this.#end} to ${size} bytes while rein was ` +
          `running (truncated by another program?); stopping so nothing more is lost`,
      );
    }
    const range = { start: this.#end, firstLine: this.#lastSeq + 1, bytes: size - this.#end };
    const delivery = new Delivery(() => this.#listeners);
    const visit = (event: Envelope) => {
      this.#lastSeq = event.seq;
      if (collect) caught.push(event);
      delivery.deliver(event);
    };
    const keep = (lines: Uint8Array) => this.#copy.add(lines);
    const scan = scanLog(this.#file, this.path, range, this.#format, visit, keep);
    for (;;) {
      const step = await scan.next();
      if (step.done) {
        if (step.value.tail > 0) {
          this.#notice(await repairTornTail(this.#file, this.path, this.#stamp(), step.value));
        }
        break;
      }
      this.#end = step.value.end;
      this.#endSeq = step.value.lastLine;
      this.#progress?.({ seq: this.#endSeq, offset: this.#end });
    }
    delivery.rethrow();
    return caught;
  }

  async #writeAll(bytes: Uint8Array): Promise<void> {
    let written = 0;
    try {
      while (written < bytes.length) written += this.#file.writeSync(bytes.subarray(written));
    } catch (error) {
      try {
        await this.#file.truncate(this.#end);
      } catch (undo) {
        this.#fatal = new Error(`Cannot undo a failed append to "${this.path}"`, { cause: undo });
      }
      throw error;
    }
    this.#end += bytes.length;
    this.#copy.add(bytes, true);
  }

  async #syncData(): Promise<void> {
    try {
      await this.#file.syncData();
    } catch (error) {
      this.#fatal = error instanceof Error ? error : new Error(String(error));
      throw new Error(`Cannot sync "${this.path}": the store now refuses every write`, {
        cause: error,
      });
    }
  }

  #assertOpen(action: string): void {
    if (this.#closed) throw new Error(`Cannot ${action} "${this.path}": the store is closed`);
  }

  #assertRunning(action: string): void {
    this.#assertOpen(action);
    if (this.#stopped !== undefined) throw this.#stopped;
  }

  #assertWritable(action: string): void {
    this.#assertRunning(action);
    if (this.#fatal !== undefined) {
      throw new Error(
        `Cannot ${action} "${this.path}": an earlier sync or write failed, so what reached the ` +
          `disk is unknown`,
        { cause: this.#fatal },
      );
    }
  }
}
