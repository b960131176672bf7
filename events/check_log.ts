import { decodeLine, type LogFormat } from "./_decode_line.ts";
import { logLines, type RawLine } from "./_log_lines.ts";
import { LogCorruptionError, LogVersionError } from "./errors.ts";
import type { Envelope } from "./event_types.ts";
import { knownEventTypes } from "./parse_envelope.ts";
import { UPCASTERS, type UpcasterTable } from "./upcast.ts";

/** What is wrong with a line: see {@link LogProblem}. */
export type LogProblemKind =
  /** Not an event: invalid UTF-8, bad JSON, or a bad envelope. */
  | "damaged"
  /** A well-formed event whose seq breaks the gapless order (a gap, a duplicate). */
  | "seq"
  /** Written by a newer rein than this one. */
  | "newer"
  /** A last line without a final newline: an interrupted append. */
  | "torn"
  /** A well-formed envelope whose payload the projections reject (found above this layer). */
  | "payload";

/** One problem of a log, with where it is. */
export interface LogProblem {
  /** 1-based line number. */
  line: number;
  /** Byte offset where the line starts: the log's valid prefix ends there. */
  offset: number;
  kind: LogProblemKind;
  /** The line's seq and type, when it is a readable envelope. */
  seq: number | null;
  type: string | null;
  /** What is wrong, e.g. `unexpected end of JSON input`. */
  reason: string;
}

/** One line as {@link checkLog} saw it. */
export interface CheckedLine {
  raw: RawLine;
  /** The event the line holds, when it is a readable envelope (even with a seq problem). */
  event: Envelope | undefined;
  /** What is wrong with the line; undefined for a good line. */
  problem: LogProblem | undefined;
}

/** How to check a log with {@link checkLog}. */
export interface CheckLogOptions {
  /** Upcaster steps for old lines; default: the shipped `UPCASTERS`. */
  upcasters?: UpcasterTable;
  /** Event types of mechanisms declared outside rein that the log may hold. */
  eventTypes?: readonly string[];
}

/**
 * Stream every line of the log at `path` with what is wrong with it, if anything, and go on past
 * a bad line (unlike `readLog`, which stops at the first): a line that is not an event, an event
 * whose seq is not the one after the last good event's (the expected seq then follows the line,
 * so one inserted or lost line is one problem, not a problem on every later line), a line from a
 * newer rein, and an unterminated last line. Reads the file without its lock and never writes
 * it. Throws only on I/O errors (the OS error's class, its message naming the path).
 */
export async function* checkLog(
  path: string,
  options: CheckLogOptions = {},
): AsyncGenerator<CheckedLine, void, undefined> {
  const format: LogFormat = {
    upcasters: options.upcasters ?? UPCASTERS,
    knownTypes: knownEventTypes(options.eventTypes),
  };
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    throw namingPath(error, path);
  }
  try {
    let expected = 1;
    for await (const raw of logLines(file)) {
      const checked = checkLine(raw, path, expected, format);
      const seq = checked.event?.seq;
      if (seq !== undefined && seq >= expected) expected = seq + 1;
      yield checked;
    }
  } catch (error) {
    throw namingPath(error, path);
  } finally {
    file.close();
  }
}

function checkLine(raw: RawLine, path: string, expected: number, format: LogFormat): CheckedLine {
  const problem = (kind: LogProblemKind, reason: string, event?: Envelope): CheckedLine => ({
    raw,
    event,
    problem: {
      line: raw.number,
      offset: raw.offset,
      kind,
      seq: event?.seq ?? null,
      type: event?.type ?? null,
      reason,
    },
  });
  if (!raw.terminated) {
    return problem(
      "torn",
      `the last line has no final newline (${raw.length} bytes): an interrupted append`,
    );
  }
  if (raw.text === undefined) return problem("damaged", "invalid UTF-8");
  try {
    return { raw, event: decodeLine(raw.text, path, expected, format), problem: undefined };
  } catch (error) {
    if (error instanceof LogVersionError) return problem("newer", newerReason(error));
    if (!(error instanceof LogCorruptionError)) throw error;
    const found = seqOf(raw.text);
    if (found === undefined || found === expected) return problem("damaged", error.reason);
    // The line is a good envelope apart from its seq: read it at its own seq to say what it is.
    try {
      return problem("seq", error.reason, decodeLine(raw.text, path, found, format));
    } catch {
      return problem("damaged", error.reason);
    }
  }
}

function newerReason(error: LogVersionError): string {
  return `written by a newer rein (event version ${error.version}, this build reads up to ` +
    `version ${error.supported})`;
}

/** The positive integer `seq` of a JSON object line, or undefined. */
function seqOf(text: string): number | undefined {
  try {
    const seq = (JSON.parse(text) as { seq?: unknown })?.seq;
    return typeof seq === "number" && Number.isInteger(seq) && seq >= 1 ? seq : undefined;
  } catch {
    return undefined;
  }
}

function namingPath(error: unknown, path: string): unknown {
  if (!Object.values(Deno.errors).some((osError) => error instanceof osError)) return error;
  const os = error as Error;
  const detail = os.message.replace(/ \(os error \d+\).*$/s, "");
  const OsError = os.constructor as new (message: string, options: ErrorOptions) => Error;
  return new OsError(`Cannot read the event log "${path}": ${detail}`, { cause: os });
}
