const CHUNK_SIZE = 1 << 20;

/**
 * What makes `info` one particular file (`dev:ino`; on Windows the volume and file index), or
 * `undefined` where the platform reports no file number, so identity cannot be checked. Pure.
 */
export function fileIdentity(info: Deno.FileInfo): string | undefined {
  return info.ino === null ? undefined : `${info.dev}:${info.ino}`;
}

/**
 * Whether `path` may no longer name the file of `size` bytes whose {@link fileIdentity} is
 * `identity` (undefined: not compared), from one `stat` and without a lock: true when the size or
 * the file differs or the stat fails, and a catch-up under the lock should find out what
 * happened. Never throws.
 */
export function pathMayHaveChanged(
  path: string,
  size: number,
  identity: string | undefined,
): boolean {
  let info: Deno.FileInfo;
  try {
    // Sync on purpose: it runs on every idle poll, and an async stat costs a thread-pool trip.
    info = Deno.statSync(path);
  } catch {
    return true;
  }
  if (info.size !== size) return true;
  return identity !== undefined && fileIdentity(info) !== identity;
}

/**
 * Create a new empty file named `${base}${suffix}`, or `${base}-2${suffix}`, `-3`… when that
 * name is taken, and return its path. Never replaces an existing file.
 */
export async function createUniqueFile(base: string, suffix = ""): Promise<string> {
  for (let attempt = 1;; attempt++) {
    const candidate = `${base}${attempt === 1 ? "" : `-${attempt}`}${suffix}`;
    try {
      (await Deno.open(candidate, { write: true, createNew: true })).close();
      return candidate;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
}

/**
 * Copy the whole content of the open `file` (from byte 0 to its end; the file need not have a
 * name any more) into the existing file `target`, replacing what it held, and flush it to disk.
 * Moves `file`'s position. Throws on any I/O error.
 */
export async function copyOpenFile(file: Deno.FsFile, target: string): Promise<void> {
  using out = await Deno.open(target, { write: true, truncate: true });
  await file.seek(0, Deno.SeekMode.Start);
  const buffer = new Uint8Array(CHUNK_SIZE);
  for (;;) {
    const count = await file.read(buffer);
    if (count === null) break;
    let written = 0;
    while (written < count) written += await out.write(buffer.subarray(written, count));
  }
  await out.syncData();
}

/**
 * Whether the regular file at `path` begins with every byte of the open `file`. False when
 * `path` cannot be read. Moves `file`'s position.
 */
export async function startsWithContentOf(path: string, file: Deno.FsFile): Promise<boolean> {
  const info = await Deno.stat(path).catch(() => undefined);
  if (!info?.isFile) return false;
  using other = await Deno.open(path, { read: true }).catch(() => undefined);
  if (other === undefined) return false;
  await file.seek(0, Deno.SeekMode.Start);
  const mine = new Uint8Array(CHUNK_SIZE);
  const theirs = new Uint8Array(CHUNK_SIZE);
  for (;;) {
    const count = await readFull(file, mine);
    if (count === 0) return true;
    if ((await readFull(other, theirs.subarray(0, count))) < count) return false;
    for (let i = 0; i < count; i++) if (mine[i] !== theirs[i]) return false;
  }
}

/** Read into `buffer` until it is full or the file ends; returns the bytes read. */
async function readFull(file: Deno.FsFile, buffer: Uint8Array): Promise<number> {
  let filled = 0;
  while (filled < buffer.length) {
    const count = await file.read(buffer.subarray(filled));
    if (count === null) break;
    filled += count;
  }
  return filled;
}

/**
 * Give the file `source` the name `target` as well, unless `target` exists, and return whether
 * it did. A hard link never replaces a file that appeared at `target` meanwhile; where links are
 * not supported, a rename does the job. `source` may remain: the caller removes it. Throws on
 * other errors.
 */
export async function placeUnlessTaken(source: string, target: string): Promise<boolean> {
  try {
    await Deno.link(source, target);
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    await Deno.rename(source, target);
  }
  return true;
}
