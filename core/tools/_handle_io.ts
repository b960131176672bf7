import type { FileHandle } from "node:fs/promises";

const CHUNK_BYTES = 64 * 1024;

/** Thrown by the readers here when the call's signal aborts; the tools report it as cancelled. */
export class ReadCancelled extends Error {
  constructor() {
    super("Read cancelled");
    this.name = "ReadCancelled";
  }
}

/**
 * Yields the file's bytes from the handle's current position in chunks of up to 64 KiB, checking
 * `signal` before each read (throws {@link ReadCancelled}). Each chunk is a fresh view of a reused
 * buffer: use it before asking for the next.
 */
export async function* readChunks(
  handle: FileHandle,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  const buffer = new Uint8Array(CHUNK_BYTES);
  while (true) {
    if (signal?.aborted) throw new ReadCancelled();
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
  }
}

/** Reads the whole file through the handle, checking `signal` between chunks. */
export async function readAll(
  handle: FileHandle,
  sizeHint: number,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  let bytes = new Uint8Array(Math.max(sizeHint, 0));
  let length = 0;
  for await (const chunk of readChunks(handle, signal)) {
    if (length + chunk.length > bytes.length) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, length + chunk.length));
      grown.set(bytes.subarray(0, length));
      bytes = grown;
    }
    bytes.set(chunk, length);
    length += chunk.length;
  }
  return bytes.subarray(0, length);
}

/**
 * Replaces the file's content through the handle: writes `bytes` from offset 0, then cuts the
 * file to their length. The file keeps its inode, mode and owner.
 */
export async function replaceContent(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written);
    written += bytesWritten;
  }
  await handle.truncate(bytes.length);
}
