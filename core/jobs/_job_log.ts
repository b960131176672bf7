import { KeptOutput, type KeptParts } from "./_kept_output.ts";

/** What a running job's log keeps so far. */
export interface KeptSnapshot {
  /** The kept output, as the file holds it once it has caught up: at most the cap. */
  bytes: Uint8Array;
  /** Bytes the job has written. */
  outputBytes: number;
  /** Bytes of it cut from the middle. */
  droppedBytes: number;
}

/** How long, at most, the log's tail lags behind a job's output once it is past the cap. */
const REWRITE_MS = 500;

/**
 * A job's log file, kept within `maxBytes` (`KeptOutput`) on disk as in memory: while the output
 * fits, each chunk is appended as it comes; once it is past the cap the file is cut back to the
 * kept head, and what follows it (the note of what was cut, and the tail) is rewritten from
 * memory at most every {@link REWRITE_MS}, and once more at the end. The file never holds more
 * than `maxBytes`, and the writes waiting never hold more than that either, however fast the job
 * writes. A failed write leaves the file as it is; what is kept in memory is still right.
 */
export class JobLog {
  readonly #file: Deno.FsFile;
  readonly #kept: KeptOutput;
  #writes: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #headWritten = false;

  constructor(file: Deno.FsFile, maxBytes: number) {
    this.#file = file;
    this.#kept = new KeptOutput(maxBytes);
  }

  /** Bytes of output pushed so far. */
  get totalBytes(): number {
    return this.#kept.totalBytes;
  }

  /** Adds a chunk of the job's output; returns at once (the file catches up). */
  push(chunk: Uint8Array): void {
    const before = this.#kept.totalBytes;
    this.#kept.push(chunk);
    const { maxBytes, totalBytes } = this.#kept;
    if (totalBytes <= maxBytes) this.#then(() => writeAll(this.#file, chunk));
    else if (before <= maxBytes) this.#then(() => this.#rewrite());
    else {
      this.#timer ??= setTimeout(() => {
        this.#timer = undefined;
        this.#then(() => this.#rewrite());
      }, REWRITE_MS);
    }
  }

  /** What is kept so far (what the file holds once it has caught up), and how much was cut. */
  snapshot(): KeptSnapshot {
    const { head, note, tail, droppedBytes } = this.#kept.parts();
    const bytes = new Uint8Array(head.length + note.length + tail.length);
    bytes.set(head);
    bytes.set(note, head.length);
    bytes.set(tail, head.length + note.length);
    return { bytes, outputBytes: this.#kept.totalBytes, droppedBytes };
  }

  /** Brings the file up to date with all that was pushed and closes it; returns what it keeps. */
  async close(): Promise<KeptParts> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#kept.totalBytes > this.#kept.maxBytes) this.#then(() => this.#rewrite());
    await this.#writes;
    this.#file.close();
    return this.#kept.parts();
  }

  #then(write: () => Promise<void>): void {
    this.#writes = this.#writes.then(write).catch(() => {});
  }

  /**
   * The file becomes the kept head, the note and the tail; the head is written the first time
   * only (the chunk that went past the cap may have had some of it).
   */
  async #rewrite(): Promise<void> {
    const { head, note, tail } = this.#kept.parts();
    const from = this.#headWritten ? head.length : 0;
    const bytes = new Uint8Array(head.length - from + note.length + tail.length);
    bytes.set(head.subarray(from));
    bytes.set(note, head.length - from);
    bytes.set(tail, head.length - from + note.length);
    await this.#file.seek(from, Deno.SeekMode.Start);
    await writeAll(this.#file, bytes);
    await this.#file.truncate(from + bytes.length);
    this.#headWritten = true;
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
}
