import { resolve } from "../../events/posix_path.ts";
import { isInside } from "./is_inside.ts";

/** Where a file read at start may lead, and how much of it is read. */
export interface Confinement {
  /**
   * The folders the file's real path must lie in (any one of them), as real paths: see
   * `realRoots`. The first one names them in notices.
   */
  roots: readonly string[];
  /** Paths never read wherever they lie (credential stores), as named and as real paths. */
  credentials: readonly string[];
  /** At most this many bytes plus one are read; `bytes` longer than this means over the cap. */
  maxBytes: number;
}

/** Why {@link readConfined} read nothing: the file is refused, or cannot be read. */
export type ConfinedProblem =
  | "outside"
  | "credential"
  | "special"
  | "moved"
  | "error";

/** What {@link readConfined} found. */
export type ConfinedRead =
  | {
    ok: true;
    /** The file's real path (every symbolic link resolved). */
    real: string;
    /** Its first bytes, at most `maxBytes + 1` of them. */
    bytes: Uint8Array;
    /** Its size as the opened file's stat gives it (a sparse file's full size). */
    size: number;
  }
  | { ok: false; problem: "missing" }
  | {
    ok: false;
    problem: ConfinedProblem;
    /** Why, worded to follow "Skipped … at "path": " (names where the file leads). */
    why: string;
  };

/**
 * Reads a file rein reads at start (CLAUDE.md, an `@import`, a SKILL.md, an agent definition)
 * without letting it lead anywhere else: the file's real path (every symbolic link resolved) must
 * lie inside one of `roots` and on none of `credentials` (the path as written is checked against
 * `credentials` too); it must be a regular file before it is opened (so a named pipe, socket,
 * device or directory is refused without waiting on it) and by the opened file's own stat; after
 * the open, the name must still lead to the same real path and to the very file opened (device
 * and inode), so a symbolic link swapped in while it was opened is caught; and at most
 * `maxBytes + 1` bytes are read (a sparse file of gigabytes costs no more). A missing file (a
 * dangling link included) is `missing`. Never throws.
 *
 * Only Deno's own file API is used: Node's `node:fs`, which alone could open without blocking,
 * costs a start tens of milliseconds to load, and every start reads these files. A named pipe
 * swapped in between the check and the open is caught by a time limit on the open instead.
 */
export async function readConfined(path: string, limits: Confinement): Promise<ConfinedRead> {
  let real: string;
  try {
    real = await Deno.realPath(path);
  } catch (error) {
    if (isMissing(error)) return { ok: false, problem: "missing" };
    return { ok: false, problem: "error", why: `cannot read it: ${message(error)}` };
  }
  const refusal = whereRefused(path, real, limits);
  if (refusal !== undefined) return refusal;
  let file: Deno.FsFile;
  try {
    const before = await Deno.stat(path);
    if (!before.isFile) return special(kindOf(before));
    file = await openInTime(path);
  } catch (error) {
    if (isMissing(error)) return { ok: false, problem: "missing" };
    return { ok: false, problem: "error", why: `cannot read it: ${message(error)}` };
  }
  try {
    const stats = await file.stat();
    if (!stats.isFile) return special(kindOf(stats));
    if (!await sameFile(stats, path, real)) {
      return {
        ok: false,
        problem: "moved",
        why: "it changed while it was being opened (a symbolic link was swapped), so it may " +
          "lead outside where it may be read from",
      };
    }
    const bytes = await readHead(file, limits.maxBytes + 1);
    return { ok: true, real, bytes, size: stats.size };
  } catch (error) {
    return { ok: false, problem: "error", why: `cannot read it: ${message(error)}` };
  } finally {
    try {
      file.close();
    } catch {
      // Closed already.
    }
  }
}

/** How long opening a file checked to be regular may take before it is given up (a pipe). */
const OPEN_LIMIT_MS = 5_000;

/**
 * `path` opened for reading; rejects when the open has not returned within
 * {@link OPEN_LIMIT_MS}, which only a named pipe swapped in after the check makes it do (the
 * open then waits for a writer on a thread of its own, and rein goes on without the file).
 */
async function openInTime(path: string): Promise<Deno.FsFile> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const opening = Deno.open(path, { read: true });
  try {
    return await Promise.race([
      opening,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`it did not open within ${OPEN_LIMIT_MS / 1000} s`)),
          OPEN_LIMIT_MS,
        );
      }),
    ]);
  } catch (error) {
    // A late open's file is closed when it comes.
    opening.then((late) => late.close(), () => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Why the file at `path` (real path `real`) may not be read at all, if so. Pure. */
function whereRefused(
  path: string,
  real: string,
  limits: Confinement,
): ConfinedRead | undefined {
  const written = resolve(path);
  if (limits.credentials.some((c) => isInside(c, real) || isInside(c, written))) {
    const where = real === written ? "it is" : `it leads to "${real}", which is`;
    return {
      ok: false,
      problem: "credential",
      why: `${where} where credentials are kept; rein never reads them`,
    };
  }
  if (!limits.roots.some((root) => isInside(root, real))) {
    return {
      ok: false,
      problem: "outside",
      why: `it leads to "${real}", outside "${limits.roots[0] ?? "/"}"`,
    };
  }
  return undefined;
}

/**
 * Whether the opened file (its stat `stats`) is the file `path` led to before the open (`real`):
 * `path` must still lead to `real`, and `real` be the very file opened (device and inode). A link
 * swapped in for the open and back is caught, though a swap of two names timed between those two
 * lookups is not.
 */
async function sameFile(stats: Deno.FileInfo, path: string, real: string): Promise<boolean> {
  try {
    if (await Deno.realPath(path) !== real) return false;
    // `real` may lie where rein may not read (a person's file linked into ~/.claude): then the
    // name as given, which rein may read.
    const now = await Deno.lstat(real).catch((error) => {
      if (error instanceof Deno.errors.NotCapable) return Deno.stat(path);
      throw error;
    });
    return now.dev === stats.dev && now.ino !== null && now.ino === stats.ino;
  } catch {
    return false;
  }
}

/** Up to `limit` bytes from the start of `file` (opened, not read from yet). */
async function readHead(file: Deno.FsFile, limit: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(limit);
  let filled = 0;
  while (filled < limit) {
    const read = await file.read(buffer.subarray(filled));
    if (read === null || read === 0) break;
    filled += read;
  }
  return buffer.subarray(0, filled);
}

function special(kind: string): ConfinedRead {
  return { ok: false, problem: "special", why: `it is ${kind}, not a regular file` };
}

function kindOf(stats: Deno.FileInfo): string {
  if (stats.isDirectory) return "a directory";
  if (stats.isFifo) return "a named pipe";
  if (stats.isSocket) return "a socket";
  if (stats.isCharDevice) return "a character device";
  if (stats.isBlockDevice) return "a block device";
  return "a special file";
}

function isMissing(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
