import { createUniqueFile } from "./_log_files.ts";

const CHUNK_SIZE = 1 << 20;

/** Where {@link cutLog} put the log's bytes. */
export interface CutLog {
  /** A copy of the whole log as it was. */
  backup: string;
  /** The bytes from the cut to the end, as they were. */
  setAside: string;
  /** Bytes kept as the log, and bytes set aside. */
  keptBytes: number;
  setAsideBytes: number;
}

/**
 * Cut the log at `path` at byte `offset` (the start of a line) without losing a byte: copy the
 * whole file to `<path>.backup-<stamp>`, the bytes from `offset` on to
 * `<path>.set-aside-<stamp>.jsonl` (neither over an existing file: `-2`, `-3`… when taken), write
 * the bytes before `offset` to a new file, flush it, and rename it over `path`. The file is never
 * rewritten in place: a reader sees the old log or the new one. `file` is the log open for
 * reading, its exclusive lock held by the caller for the whole call (so no append races the
 * copy); it keeps naming the old file, which the caller closes. Throws on I/O errors; the log is
 * unchanged unless the final rename happened.
 */
export async function cutLog(
  path: string,
  file: Deno.FsFile,
  offset: number,
  stamp: string,
): Promise<CutLog> {
  const { size, mode } = await file.stat();
  if (offset < 0 || offset > size) {
    throw new RangeError(`Cannot cut "${path}" at byte ${offset}: it has ${size} bytes`);
  }
  const backup = await createUniqueFile(`${path}.backup-${stamp}`);
  await copyRange(file, 0, size, backup);
  const setAside = await createUniqueFile(`${path}.set-aside-${stamp}`, ".jsonl");
  await copyRange(file, offset, size, setAside);
  const kept = await createUniqueFile(`${path}.salvaged-${stamp}`, ".tmp");
  try {
    await copyRange(file, 0, offset, kept);
    if (mode !== null) await Deno.chmod(kept, mode & 0o777);
    await Deno.rename(kept, path);
  } catch (error) {
    await Deno.remove(kept).catch(() => {});
    throw error;
  }
  return { backup, setAside, keptBytes: offset, setAsideBytes: size - offset };
}

/** Write bytes `[from, to)` of `file` into the existing file `target` and flush it to disk. */
async function copyRange(file: Deno.FsFile, from: number, to: number, target: string) {
  using out = await Deno.open(target, { write: true, truncate: true });
  await file.seek(from, Deno.SeekMode.Start);
  const buffer = new Uint8Array(CHUNK_SIZE);
  let left = to - from;
  while (left > 0) {
    const count = await file.read(buffer.subarray(0, Math.min(left, buffer.length)));
    if (count === null) throw new Error(`"${target}": the log ended ${left} bytes early`);
    let written = 0;
    while (written < count) written += await out.write(buffer.subarray(written, count));
    left -= count;
  }
  await out.syncData();
}
