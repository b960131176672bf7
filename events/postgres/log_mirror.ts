import { exportLines } from "./log_transfer.ts";
import { openPostgresStore, type PostgresStore } from "./postgres_store.ts";
import { readLog } from "../read_log.ts";
import type { Envelope } from "../event_types.ts";

/** A JSONL copy of a PostgreSQL log kept current by its NOTIFYs (see {@link mirrorLog}). */
export interface LogMirror {
  /** The copy's path. */
  readonly path: string;
  /** seq of the last event the copy holds. */
  readonly lastSeq: number;
  /** The store's name, without the URL's password. */
  readonly display: string;
  /**
   * The copy's events from `fromSeq` on, then each one as the copy gets it (told in this process
   * when it is written: nothing polls), until `signal` aborts.
   */
  follow(fromSeq: number, signal: AbortSignal): AsyncIterable<Envelope>;
  /** Stop following the store, and close it; the copy stays. */
  close(): Promise<void>;
}

/**
 * Copy the PostgreSQL log at `store` to a new JSONL file at `path` (byte for byte, as
 * `exportLines`), then keep appending what is committed to it: woken by the store's
 * `waitForAppend` (LISTEN/NOTIFY), each new event's line is read from the table and written to the
 * copy before the copy's followers hear of it. The file-based readers (rein view) thus read the
 * database's log as a JSONL log. A failure to read or write is reported through `onNotice` and
 * stops the copy where it is. Throws what the first export throws.
 */
export async function mirrorLog(
  store: string,
  path: string,
  options: { onNotice?: (message: string) => void; eventTypes?: readonly string[] } = {},
): Promise<LogMirror> {
  const encoder = new TextEncoder();
  const file = await Deno.open(path, { write: true, createNew: true });
  let lastSeq = 0;
  let offset = 0;
  /** Where lines end (seq, byte offset), one per batch written: where a follower starts reading. */
  const marks: [number, number][] = [];
  const write = async (line: string) => {
    const bytes = encoder.encode(line);
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    offset += bytes.length;
    lastSeq++;
  };
  let opened: PostgresStore | undefined;
  try {
    for await (const line of exportLines(store, options)) await write(line);
    if (lastSeq > 0) marks.push([lastSeq, offset]);
    opened = await openPostgresStore(store, {
      clock: () => new Date(),
      start: { seq: lastSeq, offset },
      ...(options.eventTypes ? { eventTypes: options.eventTypes } : {}),
      ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    });
  } catch (error) {
    file.close();
    throw error;
  }
  const database = opened;
  const stop = new AbortController();
  /** Told when the copy grows (or stops). */
  let grown = Promise.withResolvers<void>();
  const wake = () => {
    grown.resolve();
    grown = Promise.withResolvers<void>();
  };
  const copying = (async () => {
    while (!stop.signal.aborted) {
      await database.waitForAppend(lastSeq, stop.signal);
      for await (const line of database.readLines(lastSeq + 1, database.lastSeq)) {
        await write(line);
      }
      if (marks.at(-1)?.[0] !== lastSeq) marks.push([lastSeq, offset]);
      wake();
    }
  })().catch((error) => {
    if (!stop.signal.aborted) {
      options.onNotice?.(
        `Stopped copying ${database.location.display}: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
  }).finally(wake);
  return {
    path,
    get lastSeq() {
      return lastSeq;
    },
    display: database.location.display,
    async *follow(fromSeq: number, signal: AbortSignal) {
      let next = Math.max(1, fromSeq);
      while (!signal.aborted) {
        const waiting = grown.promise;
        const upTo = lastSeq;
        if (upTo >= next) {
          const mark = marks.findLast(([seq]) => seq < next);
          const start = mark === undefined ? {} : { start: { seq: mark[0], offset: mark[1] } };
          for await (const event of readLog(path, { upTo, ...start })) {
            if (event.seq < next) continue;
            if (signal.aborted) return;
            yield event;
            next = event.seq + 1;
          }
          continue;
        }
        if (stop.signal.aborted) return;
        const aborted = new Promise<void>((resolve) =>
          signal.addEventListener("abort", () => resolve(), { once: true })
        );
        await Promise.race([waiting, aborted]);
      }
    },
    async close() {
      stop.abort();
      await copying;
      await database.close();
      file.close();
    },
  };
}
