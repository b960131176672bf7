import type { Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { nodeFs } from "./node_fs.ts";
import { resolve } from "node:path";
import { isInside } from "./is_inside.ts";
import { kernelPathOf } from "./kernel_path.ts";

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
 * `credentials` too); it is opened without waiting on a named pipe (`O_NONBLOCK`) and must be a
 * regular file by the opened handle's own stat (a pipe, socket, device or directory is refused);
 * after the open, the name must still lead to the same real path and to the very file opened
 * (device and inode), so a symbolic link swapped in while it was opened is caught; and at most
 * `maxBytes + 1` bytes are read (a sparse file of gigabytes costs no more). A missing file (a
 * dangling link included) is `missing`. Never throws.
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
  let handle: FileHandle;
  try {
    const { constants, open } = await nodeFs();
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "ENOENT") return { ok: false, problem: "missing" };
    if (code === "EISDIR") return special("a directory");
    return { ok: false, problem: "error", why: `cannot read it: ${message(error)}` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return special(kindOf(stats));
    const where = await handleLocation(handle, stats, path, real);
    const moved = where === undefined ? undefined : whereRefused(path, where, limits);
    if (moved !== undefined) return moved;
    if (where === undefined) {
      return {
        ok: false,
        problem: "moved",
        why: "it changed while it was being opened (a symbolic link was swapped), so it may " +
          "lead outside where it may be read from",
      };
    }
    const bytes = await readHead(handle, limits.maxBytes + 1);
    return { ok: true, real, bytes, size: stats.size };
  } catch (error) {
    return { ok: false, problem: "error", why: `cannot read it: ${message(error)}` };
  } finally {
    await handle.close().catch(() => {});
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
 * Where the opened file lies, or undefined when that cannot be told or is not where `path` led
 * (`real`) before the open. On Linux, where rein may read it, the kernel's own path of the handle
 * (`/proc/self/fd/N`), which no swap of links can fool. Elsewhere (Deno asks for all permissions
 * to read `/proc/self`) `path` must still lead to `real`, and `real` be the very file opened
 * (device and inode): a link swapped in for the open and back is caught, though a swap of two
 * names timed between those two lookups is not.
 */
async function handleLocation(
  handle: FileHandle,
  stats: Stats,
  path: string,
  real: string,
): Promise<string | undefined> {
  const kernelPath = await kernelPathOf(handle.fd);
  if (kernelPath !== undefined) return kernelPath || undefined;
  try {
    if (await Deno.realPath(path) !== real) return undefined;
    // `real` may lie where rein may not read (a person's file linked into ~/.claude): then the
    // name as given, which rein may read.
    const now = await Deno.lstat(real).catch((error) => {
      if (error instanceof Deno.errors.NotCapable) return Deno.stat(path);
      throw error;
    });
    return now.dev === stats.dev && now.ino === stats.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Up to `limit` bytes from the start of `handle`. */
async function readHead(handle: FileHandle, limit: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(limit);
  let filled = 0;
  while (filled < limit) {
    const { bytesRead } = await handle.read(buffer, filled, limit - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

function special(kind: string): ConfinedRead {
  return { ok: false, problem: "special", why: `it is ${kind}, not a regular file` };
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return "a special file";
}

function isMissing(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
