import { cutNote } from "../tools/_capped_output.ts";
import { formatNumber } from "../tools/_format.ts";

/** Room the cap leaves for the note of what was cut (the longest note is 43 bytes). */
const NOTE_ROOM = 64;

const NEWLINE = 0x0a;

/** What a job's log keeps of its output: all of it, or a head and a tail with a note between. */
export interface KeptParts {
  /** The first bytes of the output (all of it when nothing was cut). */
  head: Uint8Array;
  /** Between the head and the tail, `[… 1,234 bytes cut …]` on a line of its own; empty when nothing was cut. */
  note: Uint8Array;
  /** The last bytes of the output; empty when nothing was cut. */
  tail: Uint8Array;
  /** Bytes of the output in neither the head nor the tail. */
  droppedBytes: number;
}

/**
 * A stream of output kept within `maxBytes` bytes, as the bash tool keeps a command's output
 * within its characters (`CappedOutput`), but counted in bytes, for a file: the whole output
 * while it fits, else its head (the first half of the cap, cut back to a line end when one is in
 * its second half) and its tail (the rest of the cap, less room for the note, starting at a line
 * start when one is in its first half), with the note of how many bytes were cut between them.
 * Neither cut splits a UTF-8 character. Memory stays within `maxBytes` plus one pushed chunk
 * however much is pushed, and each byte pushed is copied at most once.
 */
export class KeptOutput {
  readonly maxBytes: number;
  readonly #headRoom: number;
  readonly #head: Uint8Array[] = [];
  #headBytes = 0;
  /** The bytes after the head, in a ring of `maxBytes - headRoom` bytes (made when needed). */
  #ring: Uint8Array | undefined;
  #ringBytes = 0;
  #totalBytes = 0;

  constructor(maxBytes: number) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 4 * NOTE_ROOM) {
      throw new RangeError(`Output cap too small: "${maxBytes}" bytes`);
    }
    this.maxBytes = maxBytes;
    this.#headRoom = Math.floor(maxBytes / 2);
  }

  /** Bytes pushed so far. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Adds a chunk (kept by reference in the head: not changed afterwards by the caller). */
  push(chunk: Uint8Array): void {
    this.#totalBytes += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#headRoom) {
      const part = chunk.subarray(0, this.#headRoom - this.#headBytes);
      this.#head.push(part);
      this.#headBytes += part.length;
      rest = chunk.subarray(part.length);
    }
    if (rest.length > 0) this.#pushRing(rest);
  }

  /** What is kept of everything pushed so far. Pure over what was pushed. */
  parts(): KeptParts {
    const head = concat(this.#head, this.#headBytes);
    if (this.#totalBytes <= this.maxBytes) {
      return {
        head: concat([head, this.#last(this.#ringBytes)]),
        note: new Uint8Array(),
        tail: new Uint8Array(),
        droppedBytes: 0,
      };
    }
    const kept = head.subarray(0, cutBackToLineEnd(head));
    const room = this.maxBytes - kept.length - NOTE_ROOM;
    const last = this.#last(Math.min(room, this.#ringBytes, this.#ringSize));
    const tail = last.subarray(cutForwardToLineStart(last));
    const droppedBytes = this.#totalBytes - kept.length - tail.length;
    const separator = kept.at(-1) === NEWLINE ? "" : "\n";
    const note = new TextEncoder().encode(
      `${separator}${cutNote(`${formatNumber(droppedBytes)} bytes`)}\n`,
    );
    return { head: kept, note, tail, droppedBytes };
  }

  get #ringSize(): number {
    return this.maxBytes - this.#headRoom;
  }

  #pushRing(bytes: Uint8Array): void {
    const size = this.#ringSize;
    const ring = this.#ring ??= new Uint8Array(size);
    const part = bytes.subarray(Math.max(0, bytes.length - size));
    const at = (this.#ringBytes + bytes.length - part.length) % size;
    const first = Math.min(part.length, size - at);
    ring.set(part.subarray(0, first), at);
    ring.set(part.subarray(first), 0);
    this.#ringBytes += bytes.length;
  }

  /** The last `n` bytes pushed to the ring (n at most what it holds), copied. */
  #last(n: number): Uint8Array {
    const ring = this.#ring;
    if (ring === undefined || n <= 0) return new Uint8Array();
    const end = this.#ringBytes % ring.length;
    const start = end - n;
    if (start >= 0) return ring.slice(start, end);
    return concat([ring.subarray(ring.length + start), ring.subarray(0, end)]);
  }
}

function concat(parts: readonly Uint8Array[], length = parts.reduce((n, p) => n + p.length, 0)) {
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/**
 * Where to end `head`: after its last newline when that is in its second half, else before a
 * UTF-8 character it would split.
 */
function cutBackToLineEnd(head: Uint8Array): number {
  const newline = head.lastIndexOf(NEWLINE);
  if (newline >= head.length / 2) return newline + 1;
  // The last character's lead byte, and whether all its bytes are there.
  for (let at = head.length - 1; at >= Math.max(0, head.length - 4); at--) {
    const byte = head[at] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return at + length > head.length ? at : head.length;
  }
  return head.length;
}

/**
 * Where to start `tail`: after its first newline when that is in its first half, else past the
 * rest of a UTF-8 character it starts inside of.
 */
function cutForwardToLineStart(tail: Uint8Array): number {
  const newline = tail.indexOf(NEWLINE);
  if (newline !== -1 && newline < tail.length / 2) return newline + 1;
  let at = 0;
  while (at < Math.min(3, tail.length) && ((tail[at] as number) & 0xc0) === 0x80) at++;
  return at;
}
