import { LogCorruptionError } from "./errors.ts";
import { decodeLine } from "./_decode_line.ts";
import type { Envelope } from "./types.ts";
import type { UpcasterTable } from "./upcast.ts";

const CHUNK_SIZE = 1 << 20;
const NEWLINE = 10;

/** The events of one chunk of complete lines, and the byte offset just after them. */
export interface ScannedChunk {
  events: Envelope[];
  end: number;
}

/** Where a scan stopped: byte offset after the last complete line read, lines read, torn bytes. */
export interface ScanEnd {
  end: number;
  lastLine: number;
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
}

/**
 * Read complete lines of `file` from `range.start` to the end of the file, in large chunks
 * decoded once each, and yield their decoded envelopes chunk by chunk. Bytes after the last
 * `\n` are not decoded; their count is returned as `tail`. Moves the file position.
 * Throws {@link LogCorruptionError} (or `LogVersionError`) at the first bad line.
 */
export async function* scanLog(
  file: Deno.FsFile,
  name: string,
  range: ScanRange,
  upcasters: UpcasterTable,
): AsyncGenerator<ScannedChunk, ScanEnd, undefined> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const buffer = new Uint8Array(CHUNK_SIZE);
  const until = range.until ?? Infinity;
  let carry: Uint8Array = new Uint8Array(0);
  let end = range.start;
  let line = range.firstLine - 1;
  await file.seek(range.start, Deno.SeekMode.Start);
  for (;;) {
    const count = await file.read(buffer);
    if (count === null) break;
    const fresh = buffer.subarray(0, count);
    const cut = fresh.lastIndexOf(NEWLINE);
    if (cut < 0) {
      carry = concat(carry, fresh);
      continue;
    }
    const complete = concat(carry, fresh.subarray(0, cut + 1));
    carry = fresh.slice(cut + 1);
    const text = decodeChunk(decoder, complete, name, line);
    const events: Envelope[] = [];
    let from = 0;
    while (from < text.length) {
      const to = text.indexOf("\n", from);
      line++;
      events.push(decodeLine(text.slice(from, to), name, line, upcasters));
      from = to + 1;
      if (line >= until) {
        end += new TextEncoder().encode(text.slice(0, from)).length;
        yield { events, end };
        return { end, lastLine: line, tail: 0 };
      }
    }
    end += complete.length;
    yield { events, end };
  }
  return { end, lastLine: line, tail: carry.length };
}

function concat(head: Uint8Array, tail: Uint8Array): Uint8Array {
  if (head.length === 0) return tail;
  const joined = new Uint8Array(head.length + tail.length);
  joined.set(head);
  joined.set(tail, head.length);
  return joined;
}

/** Decode a chunk of whole lines; on invalid UTF-8, name the first bad line. */
function decodeChunk(
  decoder: TextDecoder,
  bytes: Uint8Array,
  name: string,
  lineBefore: number,
): string {
  try {
    return decoder.decode(bytes);
  } catch (error) {
    let line = lineBefore;
    let from = 0;
    while (from < bytes.length) {
      const to = bytes.indexOf(NEWLINE, from);
      line++;
      try {
        decoder.decode(bytes.subarray(from, to));
      } catch {
        throw new LogCorruptionError(name, line, "invalid UTF-8", { cause: error });
      }
      from = to + 1;
    }
    throw error;
  }
}
