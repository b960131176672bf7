import { scanLog } from "./_scan_log.ts";
import type { Envelope } from "./types.ts";
import { UPCASTERS, type UpcasterTable } from "./upcast.ts";

/** How to read a log with {@link readLog}. */
export interface ReadLogOptions {
  /** Stop after the event with this seq (e.g. `rein state --at SEQ`, forks). */
  upTo?: number;
  /** Receives a one-line report when the last line is unterminated and therefore skipped. */
  onNotice?: (message: string) => void;
  /** Upcaster steps for old lines; default: the shipped `UPCASTERS`. */
  upcasters?: UpcasterTable;
}

/**
 * Stream the events of the log at `path`, upcast and validated, in seq order, without
 * modifying the file or taking its lock (appends are whole lines, so a reader only ever sees a
 * prefix). An unterminated last line, torn or still being written, is not yielded and is
 * reported once via `onNotice`; nothing is repaired.
 * Throws `Deno.errors.NotFound` for a missing file, `LogCorruptionError` for a damaged line
 * before the last, and `LogVersionError` for a line written by a newer rein.
 */
export async function* readLog(
  path: string,
  options: ReadLogOptions = {},
): AsyncGenerator<Envelope, void, undefined> {
  const upTo = options.upTo ?? Infinity;
  if (upTo < 1) return;
  const file = await Deno.open(path, { read: true });
  try {
    const range = { start: 0, firstLine: 1, until: upTo };
    const scan = scanLog(file, path, range, options.upcasters ?? UPCASTERS);
    for (;;) {
      const step = await scan.next();
      if (step.done) {
        const { tail, lastLine } = step.value;
        if (tail > 0) {
          options.onNotice?.(
            `Ignored the unterminated last line of "${path}" (line ${lastLine + 1}, ${tail} ` +
              `bytes): an append was interrupted or is still being written`,
          );
        }
        return;
      }
      for (const event of step.value.events) yield event;
    }
  } finally {
    file.close();
  }
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
