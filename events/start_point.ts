import { decodeLine, type LogFormat } from "./_decode_line.ts";
import { LogCorruptionError, LogVersionError } from "./errors.ts";
import { scanLog } from "./_scan_log.ts";

/**
 * A place in a log to start reading from instead of its first event: just after event `seq`.
 * What a snapshot records about where it was taken ("as of seq N"). The JSONL store may also
 * record where that event's line ends, byte `offset` (its `\n` included), and the SHA-256 (hex)
 * of its bytes without the `\n`, `lineHash`: an optimisation that spares reading the lines
 * before it. A store without byte offsets (in memory, a database) starts from `seq` alone.
 */
export interface StartPoint {
  seq: number;
  offset?: number;
  lineHash?: string;
}

/** A {@link StartPoint} of the JSONL store, with its byte offset. */
export type PlacedStartPoint = StartPoint & { offset: number };

/** The longest line looked for when checking a start point; a longer one fails the check. */
const MAX_LINE = 64 << 20;
const BACK_STEP = 64 << 10;

/**
 * Why `point` is not a place to start reading `file` (the log named `name`), or undefined when it
 * is: the byte before `offset` is the `\n` of a line that decodes to event `point.seq` and
 * whose bytes hash to `point.lineHash` (when given). Reads only that line (backwards from `offset`); moves
 * the file position. A point without an offset is checked by {@link offsetOfSeq}, which reads
 * the lines up to it. Throws only for an I/O error.
 */
export async function startPointProblem(
  file: Deno.FsFile,
  name: string,
  point: StartPoint,
  format: LogFormat,
): Promise<string | undefined> {
  if (!Number.isInteger(point.seq) || point.seq < 1) return `bad seq ${point.seq}`;
  if (point.offset === undefined) {
    const found = await offsetOfSeq(file, name, point.seq, format);
    return typeof found === "string" ? found : undefined;
  }
  if (!Number.isInteger(point.offset) || point.offset < 2) return `bad offset ${point.offset}`;
  const size = (await file.stat()).size;
  if (size < point.offset) return `the log has ${size} bytes, fewer than ${point.offset}`;
  const line = await lineEndingAt(file, point.offset);
  if (line === undefined) return `no line ends at byte ${point.offset}`;
  if (point.lineHash !== undefined && await sha256Hex(line) !== point.lineHash) {
    return `the line ending at byte ${point.offset} is not the one recorded`;
  }
  try {
    decodeLine(new TextDecoder().decode(line), name, point.seq, format);
  } catch (error) {
    if (error instanceof LogCorruptionError || error instanceof LogVersionError) {
      return error.message;
    }
    throw error;
  }
  return undefined;
}

/**
 * Where the line of event `seq` of `file` (the log named `name`) ends, found by reading the lines
 * up to it (decoded and checked, as a store reads them), or why there is none: the log holds
 * fewer events, or a line before it is damaged. Moves the file position. Throws only for an I/O
 * error.
 */
export async function offsetOfSeq(
  file: Deno.FsFile,
  name: string,
  seq: number,
  format: LogFormat,
): Promise<number | string> {
  if (!Number.isInteger(seq) || seq < 1) return `bad seq ${seq}`;
  const scan = scanLog(file, name, { start: 0, firstLine: 1, until: seq }, format, () => {});
  let at = { end: 0, lastLine: 0 };
  try {
    for (;;) {
      const step = await scan.next();
      at = step.value;
      if (step.done) break;
    }
  } catch (error) {
    if (error instanceof LogCorruptionError || error instanceof LogVersionError) {
      return error.message;
    }
    throw error;
  }
  return at.lastLine === seq ? at.end : `the log holds ${at.lastLine} events, fewer than ${seq}`;
}

/**
 * The bytes of the line of `file` whose `\n` is the byte before `offset` (without it), or
 * undefined when that byte is not a `\n` or the line is longer than 64 MiB. Moves the position.
 */
export async function lineEndingAt(
  file: Deno.FsFile,
  offset: number,
): Promise<Uint8Array | undefined> {
  const last = await readAt(file, offset - 1, 1);
  if (last[0] !== 10) return undefined;
  const parts: Uint8Array[] = [];
  let end = offset - 1;
  while (end > 0 && offset - end <= MAX_LINE) {
    const start = Math.max(0, end - BACK_STEP);
    const bytes = await readAt(file, start, end - start);
    const cut = bytes.lastIndexOf(10);
    if (cut >= 0) {
      parts.unshift(bytes.subarray(cut + 1));
      return join(parts);
    }
    parts.unshift(bytes);
    end = start;
  }
  return end === 0 ? join(parts) : undefined;
}

/** SHA-256 of `bytes`, in hex. */
export async function sha256Hex(bytes: Uint8Array | string): Promise<string> {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data as BufferSource));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function readAt(file: Deno.FsFile, at: number, length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  await file.seek(at, Deno.SeekMode.Start);
  let filled = 0;
  while (filled < length) {
    const count = await file.read(bytes.subarray(filled));
    if (count === null) break;
    filled += count;
  }
  return bytes.subarray(0, filled);
}

function join(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** A store was asked to start at a {@link StartPoint} that does not hold in the log (any more). */
export class StartPointError extends Error {
  override name = "StartPointError";
}
