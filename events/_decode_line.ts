import { LogCorruptionError, LogVersionError } from "./errors.ts";
import { parseEnvelope } from "./parse_envelope.ts";
import { CURRENT_VERSION, type Envelope } from "./event_types.ts";
import { type RawEvent, upcast, type UpcasterTable } from "./upcast.ts";

/** How lines of a log are read: the upcaster steps, and the event types it may hold. */
export interface LogFormat {
  upcasters: UpcasterTable;
  knownTypes: ReadonlySet<string>;
}

/**
 * Turn the text of line `line` of `file` (without its `\n`) into a validated, upcast envelope
 * whose `seq` equals `line` (seq is gapless from 1, one event per line).
 * Throws {@link LogCorruptionError} or {@link LogVersionError}; otherwise pure.
 */
export function decodeLine(
  text: string,
  file: string,
  line: number,
  format: LogFormat,
): Envelope {
  if (text.length === 0) throw new LogCorruptionError(file, line, "empty line");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new LogCorruptionError(file, line, jsonReason(error), { cause: error });
  }
  if (isRecord(raw) && raw.v !== CURRENT_VERSION) {
    raw = upcastLine(raw, file, line, format.upcasters);
  }
  const envelope = parseEnvelope(raw, format.knownTypes);
  if (typeof envelope === "string") throw new LogCorruptionError(file, line, envelope);
  if (envelope.seq !== line) {
    throw new LogCorruptionError(file, line, seqReason(envelope.seq, line));
  }
  return envelope;
}

function upcastLine(raw: RawEvent, file: string, line: number, upcasters: UpcasterTable): RawEvent {
  const v = raw.v;
  if (typeof v === "number" && Number.isInteger(v) && v > CURRENT_VERSION) {
    throw new LogVersionError(file, line, v, CURRENT_VERSION);
  }
  const result = upcast(raw, upcasters, CURRENT_VERSION);
  if (typeof result === "string") throw new LogCorruptionError(file, line, result);
  return result;
}

function isRecord(value: unknown): value is RawEvent {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function seqReason(found: number, expected: number): string {
  const what = found > expected ? "a gap" : "a duplicate or out-of-order seq";
  return `expected seq ${expected}, found ${found} (${what})`;
}

function jsonReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // V8's wording ("Unexpected end of JSON input") already says what is wrong.
  return `${message.charAt(0).toLowerCase()}${message.slice(1)}`;
}
