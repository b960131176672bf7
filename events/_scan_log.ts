import { LogCorruptionError } from "./errors.ts";
import { decodeLine, type LogFormat } from "./_decode_line.ts";
import type { Envelope } from "./event_types.ts";

const CHUNK_SIZE = 1 << 20;
/** The smallest chunk a scan told how much there is to read uses. */
const MIN_CHUNK_SIZE = 1 << 16;
const NEWLINE = 10;

/** How far a scan got: the byte offset after the last complete line read, and its number. */
export interface ScanProgress {
  end: number;
  lastLine: number;
}

/** Where a scan stopped: byte offset after the last complete line read, lines read, torn bytes. */
export interface ScanEnd extends ScanProgress {
  /** Bytes after the last `\n` (an unterminated last line); 0 when stopped early by `until`. */
  tail: number;
}

/** Where to start scanning and when to stop. */
export interface ScanRange {
  /** Byte offset of the first line to read; must follow a `\n` or be 0. */
  start: number;
  /** Line number (= seq) of the line at `start`. */
  firstLine: number;
  /** Stop after this line; omit to read to the end of the file. */
  until?: number;
  /**
   * About how many bytes there are to read (the file's size past `start`, when the caller knows
   * it): a scan of less than a chunk reads into buffers of about that size instead of two of 1
   * MiB (a store catching up on another process's append of a few lines, many times a second in
   * a team). More is read if the file has grown meanwhile.
   */
  bytes?: number;
  /**
   * Decode and visit only the lines for which this returns true (given the line's text); the
   * others are counted, not decoded, so not checked either. Omit to decode every line.
   */
  only?: (line: string) => boolean;
}

/**
 * Read complete lines of `file` from `range.start` to the end of the file (or line
 * `range.until`; only those `range.only` picks), in large chunks decoded once each, and hand each decoded envelope to `visit`
 * as soon as it is decoded, so a rebuild retains nothing. Yields, after each chunk, the byte
 * offset just past its last line and that line's number (every event up to it has been
 * visited). Bytes after the last
 * `\n` are not decoded; their count is returned as `tail`. Moves the file position.
 * Before each yield, `keep` (if given) receives the bytes of the lines visited since the last
 * yield, as a view that is valid only during the call.
 * Throws {@link LogCorruptionError} (or `LogVersionError`) at the first bad line, and whatever
 * `visit` throws.
 */
export async function* scanLog(
  file: Deno.FsFile,
  name: string,
  range: ScanRange,
  format: LogFormat,
  visit: (event: Envelope) => void,
  keep?: (lines: Uint8Array) => void,
): AsyncGenerator<ScanProgress, ScanEnd, undefined> {
  const chunk = range.bytes === undefined
    ? CHUNK_SIZE
    : Math.min(CHUNK_SIZE, Math.max(MIN_CHUNK_SIZE, range.bytes));
  let buffer = new Uint8Array(chunk);
  let spare = new Uint8Array(chunk);
  // The bytes of a line not complete yet are moved to the start of the other buffer, and the
  // next chunk is read after them (while this one is parsed).
  let held = 0;
  let end = range.start;
  let line = range.firstLine - 1;
  await file.seek(range.start, Deno.SeekMode.Start);
  let reading = file.read(buffer);
  try {
    for (;;) {
      const count = await reading;
      if (count === null) break;
      const fresh = buffer.subarray(0, held + count);
      const cut = fresh.lastIndexOf(NEWLINE);
      const rest = fresh.subarray(cut + 1);
      if (spare.length - rest.length < chunk) {
        spare = new Uint8Array(rest.length + chunk);
      }
      spare.set(rest);
      held = rest.length;
      [buffer, spare] = [spare, buffer];
      reading = file.read(buffer.subarray(held));
      if (cut < 0) continue;
      const complete = fresh.subarray(0, cut + 1);
      const scan = scanChunk(complete, name, line, range, format, visit);
      line = scan.line;
      if (scan.read > 0) keep?.(complete.subarray(0, scan.read));
      end += scan.read;
      if (yield* progressAfter(scan, end)) return { end, lastLine: line, tail: 0 };
    }
  } finally {
    // Never leave a read running on a file the caller may close next.
    await reading.catch(() => null);
  }
  return { end, lastLine: line, tail: held };
}

/**
 * {@link scanLog} with reads that block, for a reader that is pulled from (replay reads a
 * session's events as its agents ask for them). The same contract, without `keep`.
 */
export function* scanLogSync(
  file: Deno.FsFile,
  name: string,
  range: ScanRange,
  format: LogFormat,
  visit: (event: Envelope) => void,
): Generator<ScanProgress, ScanEnd, undefined> {
  // The start of a line not complete yet is moved to the front, and the next read fills the
  // rest; a line longer than the buffer doubles it.
  let buffer = new Uint8Array(CHUNK_SIZE);
  let held = 0;
  let end = range.start;
  let line = range.firstLine - 1;
  file.seekSync(range.start, Deno.SeekMode.Start);
  for (;;) {
    if (held === buffer.length) {
      const grown = new Uint8Array(2 * buffer.length);
      grown.set(buffer);
      buffer = grown;
    }
    const count = file.readSync(buffer.subarray(held));
    if (count === null) break;
    const fresh = buffer.subarray(0, held + count);
    const cut = fresh.lastIndexOf(NEWLINE);
    if (cut < 0) {
      held += count;
      continue;
    }
    const scan = scanChunk(fresh.subarray(0, cut + 1), name, line, range, format, visit);
    line = scan.line;
    end += scan.read;
    if (yield* progressAfter(scan, end)) return { end, lastLine: line, tail: 0 };
    buffer.copyWithin(0, cut + 1, fresh.length);
    held = fresh.length - cut - 1;
  }
  return { end, lastLine: line, tail: held };
}

/**
 * What a scan yields after a chunk that reached byte `end`: how far its lines reach; true when
 * the scan is to stop there. For a bad line, how far the good lines before it reach (so a caller
 * that keeps an offset stays consistent with what it was given), then its error is thrown.
 */
function* progressAfter(scan: ChunkScan, end: number): Generator<ScanProgress, boolean, undefined> {
  if (scan.failure) {
    if (scan.read > 0) yield { end, lastLine: scan.line };
    throw scan.failure.error;
  }
  yield { end, lastLine: scan.line };
  return scan.stopped;
}

/** What {@link scanChunk} did with a chunk of whole lines. */
interface ChunkScan {
  /** Bytes of the lines handled (visited or passed over), from the chunk's start. */
  read: number;
  /** Number of the last line handled. */
  line: number;
  /** Line `until` was handled: nothing after it is wanted. */
  stopped: boolean;
  /** The first bad line's error; the lines before it are handled. */
  failure?: { error: unknown };
}

/**
 * Decode the whole lines `bytes` holds (the first is line `lineBefore + 1`) and visit each
 * event, up to line `range.until`, passing over those `range.only` does not pick. Stops at the
 * first bad line and reports its error; whatever `visit` throws is thrown.
 */
function scanChunk(
  bytes: Uint8Array,
  name: string,
  lineBefore: number,
  range: ScanRange,
  format: LogFormat,
  visit: (event: Envelope) => void,
): ChunkScan {
  const until = range.until ?? Infinity;
  const only = range.only;
  const text = decodeChunk(bytes, name, lineBefore);
  let line = lineBefore;
  let from = 0;
  while (from < text.length) {
    const to = text.indexOf("\n", from);
    line++;
    const lineText = text.slice(from, to);
    if (only === undefined || only(lineText)) {
      let event: Envelope;
      try {
        event = decodeLine(lineText, name, line, format);
      } catch (error) {
        return {
          read: byteLength(text.slice(0, from)),
          line: line - 1,
          stopped: false,
          failure: { error },
        };
      }
      visit(event);
    }
    from = to + 1;
    if (line >= until) {
      return { read: byteLength(text.slice(0, from)), line, stopped: true };
    }
  }
  return { read: bytes.length, line, stopped: false };
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

const lenient = new TextDecoder("utf-8", { ignoreBOM: true });
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decode a chunk of whole lines. The lenient decoder is several times faster than the fatal one;
 * only a chunk holding U+FFFD (a replaced bad byte, or a genuine U+FFFD) is decoded again
 * strictly, and on invalid UTF-8 the first bad line is named.
 */
function decodeChunk(bytes: Uint8Array, name: string, lineBefore: number): string {
  const text = lenient.decode(bytes);
  if (!text.includes("\uFFFD")) return text;
  try {
    return strict.decode(bytes);
  } catch (error) {
    let line = lineBefore;
    let from = 0;
    while (from < bytes.length) {
      const to = bytes.indexOf(NEWLINE, from);
      line++;
      try {
        strict.decode(bytes.subarray(from, to));
      } catch {
        throw new LogCorruptionError(name, line, "invalid UTF-8", { cause: error });
      }
      from = to + 1;
    }
    throw error;
  }
}
