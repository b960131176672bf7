import { followJsonlLog } from "./follow_log.ts";
import { knownEventTypes } from "./parse_envelope.ts";
import { readLog } from "./read_log.ts";
import type { StartPoint } from "./start_point.ts";
import type { LogReader, ReadRange } from "./store.ts";
import type { Envelope } from "./event_types.ts";
import { UPCASTERS, type UpcasterTable } from "./upcast.ts";

/** How {@link openLogReader} reads the log. */
export interface LogReaderOptions {
  /** Upcaster steps for old lines; default: the shipped `UPCASTERS`. */
  upcasters?: UpcasterTable;
  /** Event types of mechanisms declared outside rein that the log may hold. */
  eventTypes?: readonly string[];
  /** Milliseconds between two looks at an idle log while following it; default 50. */
  pollMs?: number;
  /**
   * A place known to hold (a snapshot's, with its byte offset): a follower starting after it
   * reads from there instead of from the first byte. Checked before use.
   */
  start?: StartPoint;
}

/**
 * A {@link LogReader} over the JSONL log at `path` that needs only read permission (Deno
 * `--allow-read`) and no lock: it never writes, repairs or creates the file. `read` streams
 * the file as `readLog` does (a torn last line is left out; a missing file rejects with
 * `Deno.errors.NotFound`); `followLog` is {@link followJsonlLog}.
 */
export function openLogReader(path: string, options: LogReaderOptions = {}): LogReader {
  return new JsonlLogReader(path, options);
}

class JsonlLogReader implements LogReader {
  constructor(readonly path: string, private readonly options: LogReaderOptions) {}

  read(range: ReadRange = {}): AsyncIterable<Envelope> {
    return readRange(this.path, range, this.options);
  }

  followLog(fromSeq: number, signal: AbortSignal): AsyncIterable<Envelope> {
    const { upcasters = UPCASTERS, eventTypes, pollMs, start } = this.options;
    const format = { upcasters, knownTypes: knownEventTypes(eventTypes) };
    return followJsonlLog(this.path, fromSeq, signal, {
      format,
      ...(pollMs === undefined ? {} : { pollMs }),
      ...(start === undefined ? {} : { start }),
    });
  }
}

/** The events of `range` in the log at `path`, read without a lock as `readLog` reads. */
async function* readRange(
  path: string,
  { fromSeq = 1, toSeq, session }: ReadRange,
  options: LogReaderOptions,
): AsyncGenerator<Envelope, void, undefined> {
  if (toSeq !== undefined && toSeq < fromSeq) return;
  const events = readLog(path, {
    ...(toSeq === undefined ? {} : { upTo: toSeq }),
    ...(session === undefined ? {} : { sessions: [session] }),
    ...(options.upcasters === undefined ? {} : { upcasters: options.upcasters }),
    ...(options.eventTypes === undefined ? {} : { eventTypes: options.eventTypes }),
  });
  for await (const event of events) if (event.seq >= fromSeq) yield event;
}
