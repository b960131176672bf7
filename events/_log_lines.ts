const CHUNK_SIZE = 1 << 20;
const NEWLINE = 10;

/** One line of a log file as it is on disk. */
export interface RawLine {
  /** 1-based line number. */
  number: number;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Bytes of the line, its `\n` included when it has one. */
  length: number;
  /** The line's text without its `\n`; undefined when the bytes are not valid UTF-8. */
  text: string | undefined;
  /** False for a last line without a final `\n` (an interrupted or unfinished append). */
  terminated: boolean;
}

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Stream the lines of `file` from its start, whatever they hold: unlike `readLog`, nothing is
 * parsed or validated, so a damaged line is handed out like any other and reading goes on. Reads
 * in large chunks; keeps only the current line's bytes across chunks. Moves the file position.
 * Throws only on I/O errors.
 */
export async function* logLines(file: Deno.FsFile): AsyncGenerator<RawLine, void, undefined> {
  await file.seek(0, Deno.SeekMode.Start);
  const buffer = new Uint8Array(CHUNK_SIZE);
  let pending: Uint8Array[] = [];
  let pendingLength = 0;
  let offset = 0;
  let number = 0;
  for (;;) {
    const count = await file.read(buffer);
    if (count === null) break;
    const chunk = buffer.subarray(0, count);
    let from = 0;
    for (;;) {
      const to = chunk.indexOf(NEWLINE, from);
      if (to < 0) break;
      const part = chunk.subarray(from, to);
      const bytes = pendingLength === 0 ? part : join(pending, pendingLength, part);
      number++;
      yield { number, offset, length: bytes.length + 1, text: decode(bytes), terminated: true };
      offset += bytes.length + 1;
      pending = [];
      pendingLength = 0;
      from = to + 1;
    }
    if (from < count) {
      pending.push(buffer.slice(from, count));
      pendingLength += count - from;
    }
  }
  if (pendingLength > 0) {
    const bytes = join(pending, pendingLength, new Uint8Array());
    yield {
      number: number + 1,
      offset,
      length: bytes.length,
      text: decode(bytes),
      terminated: false,
    };
  }
}

function decode(bytes: Uint8Array): string | undefined {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

function join(head: readonly Uint8Array[], headLength: number, tail: Uint8Array): Uint8Array {
  const joined = new Uint8Array(headLength + tail.length);
  let at = 0;
  for (const part of head) {
    joined.set(part, at);
    at += part.length;
  }
  joined.set(tail, at);
  return joined;
}
