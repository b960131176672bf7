import { dirname } from "node:path";
import { Delivery } from "./_delivery.ts";
import { encodeEvents } from "./_encode.ts";
import { type ScanEnd, scanLog } from "./_scan_log.ts";
import { createRedactor, type Redactor } from "./redact.ts";
import type { AppendOptions, EventListener, EventStore } from "./store.ts";
import type { Envelope, NewEvent } from "./types.ts";
import { UPCASTERS, type UpcasterTable } from "./upcast.ts";

/** How to open a {@link JsonlStore}. */
export interface JsonlStoreOptions {
  /** Time source for `ts` stamps and backup names. */
  clock: () => Date;
  /** Values that must never reach the file; see `createRedactor`. */
  secrets?: readonly string[];
  /** Receives every event in seq order: read at open, caught up, or appended. */
  onEvent?: EventListener;
  /** Receives one-line reports of repairs, such as a torn tail that was cut off. */
  onNotice?: (message: string) => void;
  /** Upcaster steps for old lines; default: the shipped `UPCASTERS`. */
  upcasters?: UpcasterTable;
}

/**
 * Open (creating it and its parent directories if missing) the JSONL log at `path`, read it
 * under an exclusive lock while feeding `onEvent`, and repair a torn last line (backup beside the
 * file, truncate, one notice). Throws `LogCorruptionError` for damage before the last line and
 * `LogVersionError` for a line written by a newer rein; the file is closed again in that case.
 */
export function openJsonlStore(path: string, options: JsonlStoreOptions): Promise<JsonlStore> {
  return JsonlStore.open(path, options);
}

/**
 * The event log as a JSONL file shared by every process of a workspace (design.md §1). Every
 * read, catch-up and append holds an exclusive `Deno.FsFile.lock`; calls on one object run one
 * at a time. A failed sync (or an append whose partial write cannot be undone) is fatal: every
 * later append and sync throws. Open it with {@link openJsonlStore}.
 */
export class JsonlStore implements EventStore {
  /** The log file, as given to {@link openJsonlStore}. */
  readonly path: string;
  readonly #file: Deno.FsFile;
  readonly #clock: () => Date;
  readonly #redact: Redactor;
  readonly #notice: (message: string) => void;
  readonly #upcasters: UpcasterTable;
  readonly #encoder = new TextEncoder();
  #listeners: EventListener[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #end = 0;
  #lastSeq = 0;
  #closed = false;
  #fatal: Error | undefined;

  private constructor(path: string, file: Deno.FsFile, options: JsonlStoreOptions) {
    this.path = path;
    this.#file = file;
    this.#clock = options.clock;
    this.#redact = createRedactor(options.secrets ?? []);
    this.#notice = options.onNotice ?? (() => {});
    this.#upcasters = options.upcasters ?? UPCASTERS;
    if (options.onEvent) this.#listeners.push(options.onEvent);
  }

  /** Same as {@link openJsonlStore}. */
  static async open(path: string, options: JsonlStoreOptions): Promise<JsonlStore> {
    await Deno.mkdir(dirname(path), { recursive: true });
    const file = await Deno.open(path, { read: true, append: true, create: true });
    const store = new JsonlStore(path, file, options);
    try {
      await store.#locked(() => store.#readTail(false));
    } catch (error) {
      file.close();
      throw error;
    }
    return store;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  append(events: readonly NewEvent[], options: AppendOptions = {}): Promise<Envelope[]> {
    return this.#serialized(async () => {
      this.#assertWritable("append to");
      if (events.length === 0) return [];
      const envelopes = await this.#locked(async () => {
        await this.#readTail(false);
        const ts = this.#clock().toISOString();
        const batch = encodeEvents(events, this.#lastSeq + 1, ts, this.#redact);
        await this.#writeAll(this.#encoder.encode(batch.text));
        this.#lastSeq += batch.envelopes.length;
        if (options.sync === true) await this.#syncData();
        return batch.envelopes;
      });
      const delivery = new Delivery(this.#listeners);
      for (const envelope of envelopes) delivery.deliver(envelope);
      delivery.rethrow();
      return envelopes;
    });
  }

  catchUp(): Promise<Envelope[]> {
    return this.#serialized(() => {
      this.#assertOpen("catch up on");
      return this.#locked(() => this.#readTail(true));
    });
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

  close(): Promise<void> {
    return this.#serialized(() => {
      if (!this.#closed) {
        this.#closed = true;
        this.#file.close();
      }
      return Promise.resolve();
    });
  }

  #serialized<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(operation);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #locked<T>(operation: () => Promise<T>): Promise<T> {
    await this.#file.lock(true);
    try {
      return await operation();
    } finally {
      await this.#file.unlock();
    }
  }

  /** Under the lock: read and deliver what follows `#end`; repair a torn last line. */
  async #readTail(collect: boolean): Promise<Envelope[]> {
    const caught: Envelope[] = [];
    const size = (await this.#file.stat()).size;
    if (size === this.#end) return caught;
    if (size < this.#end) {
      throw new Error(
        `Cannot catch up on "${this.path}": the file shrank from ${this.#end} to ${size} bytes ` +
          `(was it replaced or truncated by hand?)`,
      );
    }
    const range = { start: this.#end, firstLine: this.#lastSeq + 1 };
    const delivery = new Delivery(this.#listeners);
    const scan = scanLog(this.#file, this.path, range, this.#upcasters, (event) => {
      this.#lastSeq = event.seq;
      if (collect) caught.push(event);
      delivery.deliver(event);
    });
    for (;;) {
      const step = await scan.next();
      if (step.done) {
        if (step.value.tail > 0) await this.#repairTornTail(step.value);
        break;
      }
      this.#end = step.value;
    }
    delivery.rethrow();
    return caught;
  }

  async #repairTornTail({ end, lastLine, tail }: ScanEnd): Promise<void> {
    const backup = await this.#reserveBackupPath();
    await Deno.copyFile(this.path, backup);
    await this.#file.truncate(end);
    this.#notice(
      `Repaired torn tail of "${this.path}": line ${lastLine + 1} (${tail} bytes) had no final ` +
        `newline, left by an interrupted append; backed the file up to "${backup}" and ` +
        `truncated it to ${end} bytes`,
    );
  }

  async #reserveBackupPath(): Promise<string> {
    const stamp = this.#clock().toISOString().replaceAll(":", "-");
    for (let attempt = 1;; attempt++) {
      const suffix = attempt === 1 ? "" : `-${attempt}`;
      const candidate = `${this.path}.torn-${stamp}${suffix}.bak`;
      try {
        (await Deno.open(candidate, { write: true, createNew: true })).close();
        return candidate;
      } catch (error) {
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      }
    }
  }

  async #writeAll(bytes: Uint8Array): Promise<void> {
    let written = 0;
    try {
      while (written < bytes.length) written += await this.#file.write(bytes.subarray(written));
    } catch (error) {
      try {
        await this.#file.truncate(this.#end);
      } catch (undo) {
        this.#fatal = new Error(`Cannot undo a failed append to "${this.path}"`, { cause: undo });
      }
      throw error;
    }
    this.#end += bytes.length;
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

  #assertWritable(action: string): void {
    this.#assertOpen(action);
    if (this.#fatal !== undefined) {
      throw new Error(
        `Cannot ${action} "${this.path}": an earlier sync or write failed, so what reached the ` +
          `disk is unknown`,
        { cause: this.#fatal },
      );
    }
  }
}
