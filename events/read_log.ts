import { type ScanEnd, scanLog, scanLogSync, type ScanProgress } from "./_scan_log.ts";
import type { Envelope } from "./event_types.ts";
import { UPCASTERS, type UpcasterTable } from "./upcast.ts";
import { knownEventTypes } from "./parse_envelope.ts";

/** How to read a log with {@link readLog}. */
export interface ReadLogOptions {
  /** Stop after the event with this seq (e.g. `rein state --at SEQ`, forks). */
  upTo?: number;
  /** Receives a one-line report when the last line is unterminated and therefore skipped. */
  onNotice?: (message: string) => void;
  /** Upcaster steps for old lines; default: the shipped `UPCASTERS`. */
  upcasters?: UpcasterTable;
  /** Event types of mechanisms declared outside rein that the log may hold. */
  eventTypes?: readonly string[];
  /**
   * Start just after the line of event `seq`, which ends at byte `offset` (a snapshot's place,
   * checked by the caller, e.g. with `startPointProblem`); from the first byte when omitted.
   */
  start?: { seq: number; offset: number };
  /**
   * Yield only the events of these sessions. Lines that do not mention any of them are skipped
   * without being decoded (so without being checked): for reading a few sessions of a long log.
   */
  sessions?: readonly string[];
  /**
   * Called once when the read reaches its end (not when it stops early or fails) with the seq
   * and byte offset just past the last complete line read: a place to start a later read.
   */
  onEnd?: (end: { seq: number; offset: number }) => void;
  /**
   * Called as the read goes, after each chunk of lines (about 1 MiB), with the seq and byte
   * offset just past its last line: places to start a later read from.
   */
  onProgress?: (at: { seq: number; offset: number }) => void;
}

/**
 * Stream the events of the log at `path`, upcast and validated, in seq order, without
 * modifying the file or taking its lock (appends are whole lines, so a reader only ever sees a
 * prefix). An unterminated last line, torn or still being written, is not yielded and is
 * reported once via `onNotice`; nothing is repaired. The file is opened on the first `next()`
 * and closed at the end, on an error, or when iteration stops early (`break`).
 * Iteration rejects with `Deno.errors.NotFound` for a missing file (and the other
 * `Deno.errors` classes for a directory or an unreadable path; each message names the path),
 * `LogCorruptionError` for a damaged line before the last, and `LogVersionError` for a line
 * written by a newer rein.
 */
export function readLog(
  path: string,
  options: ReadLogOptions = {},
): AsyncIterableIterator<Envelope> {
  return new LogReader(path, options);
}

/**
 * Read the events of the log at `path` with seq ≤ `upTo` (all of them when omitted) into an
 * array. Same contract as {@link readLog}.
 */
export async function readEvents(path: string, options: ReadLogOptions = {}): Promise<Envelope[]> {
  const events: Envelope[] = [];
  for await (const event of readLog(path, options)) events.push(event);
  return events;
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/**
 * What a reader of the log keeps: the log and how to read it, the file and the scan once it has
 * started, the events decoded and not yet handed out, and whether the read has ended.
 */
abstract class Reading<Scan> {
  protected file: Deno.FsFile | undefined;
  protected scan: Scan | undefined;
  protected batch: Envelope[] = [];
  protected at = 0;
  protected finished = false;

  constructor(protected readonly path: string, protected readonly options: ReadLogOptions) {}
}

/**
 * A hand-written async iterator rather than an async generator: handing out an already decoded
 * event costs one resolved promise instead of a generator round trip, which is a large share of
 * a rebuild's time.
 */
class LogReader extends Reading<AsyncGenerator<ScanProgress, ScanEnd, undefined>>
  implements AsyncIterableIterator<Envelope> {
  [Symbol.asyncIterator](): AsyncIterableIterator<Envelope> {
    return this;
  }

  next(): Promise<IteratorResult<Envelope, undefined>> {
    const event = this.batch[this.at];
    if (event === undefined) return this.finished ? Promise.resolve(DONE) : this.#refill();
    this.at++;
    return Promise.resolve({ value: event, done: false });
  }

  async return(): Promise<IteratorResult<Envelope, undefined>> {
    await this.#finish();
    return DONE;
  }

  async #refill(): Promise<IteratorResult<Envelope, undefined>> {
    this.batch = [];
    this.at = 0;
    try {
      while (!this.finished && this.batch.length === 0) await this.#step();
    } catch (error) {
      await this.#finish();
      throw withPath(error, this.path);
    }
    const event = this.batch[this.at++];
    return event === undefined ? DONE : { value: event, done: false };
  }

  async #step(): Promise<void> {
    if (this.scan === undefined) {
      const setup = scanSetup(this.options, (event) => this.batch.push(event));
      if (setup === undefined) return this.#finish();
      this.file = await Deno.open(this.path, { read: true });
      const { range, format, visit } = setup;
      this.scan = scanLog(this.file, this.path, range, format, visit);
    }
    const step = await this.scan.next();
    if (!step.done) {
      this.options.onProgress?.({ seq: step.value.lastLine, offset: step.value.end });
      return;
    }
    reportEnd(step.value, this.path, this.options);
    await this.#finish();
  }

  async #finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    await this.scan?.return(STOPPED);
    this.file?.close();
  }
}

/**
 * {@link readLog} with reads that block: the events of the log at `path`, as an iterator pulled
 * one event at a time (from chunks of about 1 MiB), for a reader that needs the next events at
 * once where it is (replay, whose agents ask for their next recorded events as they go). The
 * same options and errors; the file is opened on the first `next()` and closed at the end, on
 * an error, or by `return()` (`break`).
 */
export function readLogSync(
  path: string,
  options: ReadLogOptions = {},
): IterableIterator<Envelope> {
  return new SyncLogReader(path, options);
}

/** {@link LogReader} for {@link readLogSync}. */
class SyncLogReader extends Reading<Generator<ScanProgress, ScanEnd, undefined>>
  implements IterableIterator<Envelope> {
  [Symbol.iterator](): IterableIterator<Envelope> {
    return this;
  }

  next(): IteratorResult<Envelope, undefined> {
    while (this.at === this.batch.length) {
      if (this.finished) return DONE;
      this.batch = [];
      this.at = 0;
      try {
        this.#step();
      } catch (error) {
        this.#finish();
        throw withPath(error, this.path);
      }
    }
    return { value: this.batch[this.at++] as Envelope, done: false };
  }

  return(): IteratorResult<Envelope, undefined> {
    this.#finish();
    return DONE;
  }

  #step(): void {
    if (this.scan === undefined) {
      const setup = scanSetup(this.options, (event) => this.batch.push(event));
      if (setup === undefined) return this.#finish();
      this.file = Deno.openSync(this.path, { read: true });
      const { range, format, visit } = setup;
      this.scan = scanLogSync(this.file, this.path, range, format, visit);
    }
    const step = this.scan.next();
    if (!step.done) {
      this.options.onProgress?.({ seq: step.value.lastLine, offset: step.value.end });
      return;
    }
    reportEnd(step.value, this.path, this.options);
    this.#finish();
  }

  #finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.scan?.return(STOPPED);
    this.file?.close();
  }
}

/**
 * Where a read of `options` starts and stops, the format of its lines and what it keeps (the
 * events of its sessions, through `push`); undefined when there is nothing to read.
 */
function scanSetup(options: ReadLogOptions, push: (event: Envelope) => void) {
  const upTo = options.upTo ?? Infinity;
  if (upTo <= (options.start?.seq ?? 0)) return undefined;
  const start = options.start ?? { seq: 0, offset: 0 };
  const range = {
    start: start.offset,
    firstLine: start.seq + 1,
    until: upTo,
    ...sessionFilter(options.sessions),
  };
  const format = {
    upcasters: options.upcasters ?? UPCASTERS,
    knownTypes: knownEventTypes(options.eventTypes),
  };
  const wanted = options.sessions === undefined ? undefined : new Set(options.sessions);
  const visit = wanted === undefined ? push : (event: Envelope) => {
    if (wanted.has(event.session)) push(event);
  };
  return { range, format, visit };
}

/** Tell `options` where a read ended, and about an unterminated last line. */
function reportEnd(end: ScanEnd, path: string, options: ReadLogOptions): void {
  const { tail, lastLine, end: offset } = end;
  options.onEnd?.({ seq: lastLine, offset });
  if (tail > 0) {
    options.onNotice?.(
      `Ignored the unterminated last line of "${path}" (line ${lastLine + 1}, ` +
        `${tail} bytes): an append was interrupted or is still being written`,
    );
  }
}

/** A line filter that keeps the lines mentioning one of `sessions`; none without sessions. */
function sessionFilter(
  sessions: readonly string[] | undefined,
): { only?: (line: string) => boolean } {
  if (sessions === undefined) return {};
  // An id appears in its lines as a JSON string; escaping only changes ids with `"` or `\`.
  const needles = sessions.map((id) => JSON.stringify(id).slice(1, -1));
  return { only: (line) => needles.some((needle) => line.includes(needle)) };
}

/** The result `return()` hands a scan it stops early; nothing reads it. */
const STOPPED: ScanEnd = { end: 0, lastLine: 0, tail: 0 };

/**
 * An OS error from opening or reading `path` as an error of the same class (so callers can still
 * test for `Deno.errors.NotFound`) whose message names the path; any other error as it is.
 */
function withPath(error: unknown, path: string): unknown {
  if (!Object.values(Deno.errors).some((osError) => error instanceof osError)) return error;
  const os = error as Error;
  const detail = os.message.replace(/ \(os error \d+\).*$/s, "");
  const OsError = os.constructor as new (message: string, options: ErrorOptions) => Error;
  return new OsError(
    `Cannot read the event log "${path}": ${detail.charAt(0).toLowerCase()}${detail.slice(1)}`,
    { cause: os },
  );
}
