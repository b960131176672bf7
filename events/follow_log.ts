import { abortableSleep } from "./abortable_sleep.ts";
import type { LogFormat } from "./_decode_line.ts";
import { LogCorruptionError } from "./errors.ts";
import type { Envelope } from "./event_types.ts";
import { fileIdentity } from "./_log_files.ts";
import { type ScanEnd, scanLog } from "./_scan_log.ts";
import { lineEndingAt, type StartPoint, startPointProblem } from "./start_point.ts";

/** How {@link followJsonlLog} reads. */
export interface FollowOptions {
  /** The upcasters and event types of the log's lines. */
  format: LogFormat;
  /** Milliseconds between two looks at an idle log (one `stat` each); default 50. */
  pollMs?: number;
  /**
   * A place known to hold (a snapshot's), before `fromSeq`: read from its byte offset instead of
   * from the first byte. Checked first; ignored when it does not hold or has no offset.
   */
  start?: StartPoint;
}

/**
 * Follow the JSONL log at `path`: yield its events from `fromSeq` on, in seq order, each once,
 * then each new one as another process appends it, until `signal` aborts (the iteration then
 * ends). Needs only read permission: it opens the file read-only, takes no lock, never writes
 * and never repairs. A last line without its `\n` (being written, or torn by a crash and later
 * cut off by a writer) is not yielded; it is read again once complete. A log that does not exist
 * (yet, or while a writer restores it) is waited for. When the path comes to name another file
 * (a writer restored a deleted log, `rein log salvage` cut it back), the follower goes on in that
 * file if it holds the last line yielded, byte for byte, at the same place; otherwise, or when
 * the file shrinks below what was read, it throws: events were yielded that the log no longer
 * holds. Throws `LogCorruptionError` for a damaged line (read twice, a poll apart, in case a
 * writer was repairing a torn tail under the read) and `LogVersionError` for a newer rein's line.
 */
export async function* followJsonlLog(
  path: string,
  fromSeq: number,
  signal: AbortSignal,
  options: FollowOptions,
): AsyncGenerator<Envelope, void, undefined> {
  const follower = new Follower(path, Math.max(1, fromSeq), options);
  try {
    while (!signal.aborted) {
      let read: Envelope[] | undefined;
      try {
        read = await follower.poll();
      } catch (error) {
        if (!(error instanceof LogCorruptionError) || follower.retried) throw error;
        follower.retried = true;
      }
      if (read !== undefined && read.length > 0) {
        follower.retried = false;
        yield* read;
        continue;
      }
      try {
        await abortableSleep(options.pollMs ?? 50, signal);
      } catch {
        return;
      }
    }
  } finally {
    follower.close();
  }
}

/** A follower's file and how far it has read it. */
class Follower {
  /** Whether the last poll met a damaged line (a second one in a row is thrown). */
  retried = false;
  #file: Deno.FsFile | undefined;
  #identity: string | undefined;
  /** Just past the last complete line read: its seq and byte offset. */
  #at = { seq: 0, offset: 0 };
  #started = false;

  constructor(
    private readonly path: string,
    private readonly fromSeq: number,
    private readonly options: FollowOptions,
  ) {}

  /** The events appended since the last poll (from `fromSeq` on), or none. */
  async poll(): Promise<Envelope[]> {
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(this.path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    const identity = fileIdentity(info);
    if (this.#file === undefined || (identity !== undefined && identity !== this.#identity)) {
      await this.#open(identity);
    } else if (info.size === this.#at.offset) {
      // Nothing after the last line read: an idle log costs one `stat` a poll.
      return [];
    }
    const file = this.#file;
    if (file === undefined) return [];
    if (!this.#started) await this.#startFrom(file);
    return await this.#readOn(file);
  }

  close(): void {
    this.#file?.close();
    this.#file = undefined;
  }

  /** Open the file `path` names now; when it replaced the one read, check that it holds it. */
  async #open(identity: string | undefined): Promise<void> {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(this.path, { read: true });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    const old = this.#file;
    try {
      if (old !== undefined && this.#at.offset > 0) await this.#assertHolds(old, file);
    } catch (error) {
      file.close();
      throw error;
    }
    old?.close();
    this.#file = file;
    this.#identity = identity;
  }

  /** Throw unless `file` holds the last line read from `old`, byte for byte, at its place. */
  async #assertHolds(old: Deno.FsFile, file: Deno.FsFile): Promise<void> {
    const { seq, offset } = this.#at;
    const was = await lineEndingAt(old, offset);
    const now = await lineEndingAt(file, offset);
    if (was !== undefined && now !== undefined && sameBytes(was, now)) return;
    throw new Error(
      `Cannot follow the event log "${this.path}": it was replaced by a file that does not hold ` +
        `event ${seq} as it was read (cut back or rewritten), so events already handed out ` +
        `are gone`,
    );
  }

  /** Start from the caller's start point when it holds, else from the first byte. */
  async #startFrom(file: Deno.FsFile): Promise<void> {
    this.#started = true;
    const start = this.options.start;
    if (start?.offset === undefined || start.seq >= this.fromSeq) return;
    const problem = await startPointProblem(file, this.path, start, this.options.format);
    if (problem === undefined) this.#at = { seq: start.seq, offset: start.offset };
  }

  /** Read the complete lines after the last one read; keep the events from `fromSeq` on. */
  async #readOn(file: Deno.FsFile): Promise<Envelope[]> {
    const size = (await file.stat()).size;
    if (size < this.#at.offset) {
      throw new Error(
        `Cannot follow the event log "${this.path}": it shrank from ${this.#at.offset} to ` +
          `${size} bytes (truncated by another program?), so events already handed out are gone`,
      );
    }
    const events: Envelope[] = [];
    const range = { start: this.#at.offset, firstLine: this.#at.seq + 1 };
    const keep = (event: Envelope) => {
      if (event.seq >= this.fromSeq) events.push(event);
    };
    const scan = scanLog(file, this.path, range, this.options.format, keep);
    try {
      for (;;) {
        const step = await scan.next();
        this.#at = { seq: step.value.lastLine, offset: step.value.end };
        if (step.done) break;
      }
    } catch (error) {
      // The good lines before a bad one are handed out; the bad one is met again next poll.
      if (events.length === 0) throw error;
    } finally {
      await scan.return(STOPPED);
    }
    return events;
  }
}

/** The result `return()` hands a scan that has already ended or stops early; nothing reads it. */
const STOPPED: ScanEnd = { end: 0, lastLine: 0, tail: 0 };

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
