import type { Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { nodeFs } from "../files/node_fs.ts";
import { resolve } from "../../events/posix_path.ts";
import { errorMessage } from "./_format.ts";
import { isInside } from "../files/is_inside.ts";
import { kernelPathOf } from "../files/kernel_path.ts";
import { guardedFolder, guardedReason, protectedPathMessage } from "./workspace_path.ts";

/** What a file tool opens a file for; decides the open flags and the verb of messages. */
export type OpenPurpose = "read" | "write" | "edit";

/** Where and how {@link openVerified} opens a file. */
export interface OpenVerifiedOptions {
  /** The workspace as the tool was given it, for messages. */
  workspace: string;
  /** The workspace's real root. */
  root: string;
  /** Absolute real path to open, as `resolveInWorkspace` gave it. */
  path: string;
  /** The path as shown to the model. */
  display: string;
  purpose: OpenPurpose;
  /** Create the file, which must not exist yet (`O_CREAT | O_EXCL`); for "write" only. */
  create?: boolean;
  /** rein's own paths: refused by name and by identity (device and inode). */
  protectedPaths?: readonly string[];
  /** Folders inside `protectedPaths` that stay open (the agent's memory, `.rein/memory/`). */
  openPaths?: readonly string[];
  /**
   * For writes: a handle that lies in the workspace's `.claude/` or `.git/` (see
   * `guardedFolder`) is refused unless it lies exactly at `allowed`, the real path of the file
   * the permission gate asked about for this call (undefined: none).
   */
  guarded?: { allowed: string | undefined };
  /**
   * A cheap check of where the handle lies (the kernel's path), for callers that judged rein's
   * own paths once for many files (`closedPaths`): a message refuses the file as protected.
   */
  closed?: (where: string) => string | undefined;
  /**
   * A path the caller has already checked against `protectedPaths` by name; when the handle lies
   * exactly there, the check by name is not repeated (it costs a few real-path lookups).
   */
  checkedPath?: string;
}

/** An open file whose identity was checked: a regular file with one name, inside the workspace. */
export interface VerifiedFile extends AsyncDisposable {
  handle: FileHandle;
  /** The handle's own stat, taken right after the open. */
  stats: Stats;
}

/** Why {@link openVerified} gave no file. `refused` comes with the model-facing message. */
export type OpenProblem =
  | { problem: "not-found" | "directory" | "exists" }
  | { problem: "special"; kind: string }
  | { problem: "refused"; reason: RefusalReason; message: string }
  | { problem: "error"; message: string };

/** Why a file was refused: a second name, a swap during the open, or rein's own file. */
export type RefusalReason = "hard-links" | "moved" | "protected";

/** The outcome of {@link openVerified}. */
export type OpenVerified = ({ ok: true } & VerifiedFile) | ({ ok: false } & OpenProblem);

/**
 * Opens `path` and checks what was opened, through the handle, never by opening the name again:
 * a symbolic link swapped in between a name check and the open, or a hard link to a file outside
 * the workspace, must not let a tool read or write that file.
 *
 * The open refuses a symlink as the last component (`O_NOFOLLOW`) and does not wait on a named
 * pipe (`O_NONBLOCK`). Then the handle's stat must show a regular file with one link (a second
 * name could be anywhere, rein's event log included), and the handle must lie inside the
 * workspace and outside `protectedPaths` (but for `openPaths` in them), and a write outside
 * `.claude/` and `.git/` unless `guarded` allows the very file: on Linux the kernel's own path of the handle
 * (`/proc/self/fd/N`) is checked, which no later rename can fool; elsewhere the real path of the
 * name must be inside and name the same device and inode. A file with the device and inode of a
 * protected file is refused too. Creating (`create`) uses `O_EXCL`, so an existing file or
 * symlink is never written through. Never throws; the handle is closed on every refusal.
 */
export async function openVerified(options: OpenVerifiedOptions): Promise<OpenVerified> {
  const { purpose, create = false } = options;
  const { constants, open } = await nodeFs();
  const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;
  const access = purpose === "read" ? O_RDONLY : purpose === "write" ? O_WRONLY : O_RDWR;
  const flags = access | O_NOFOLLOW | O_NONBLOCK | (create ? O_CREAT | O_EXCL : 0);
  let handle: FileHandle;
  try {
    handle = await open(options.path, flags, 0o666);
  } catch (error) {
    return openFailure(error, options);
  }
  try {
    const stats = await handle.stat();
    const problem = await checkIdentity(handle, stats, options);
    if (problem !== undefined) {
      await handle.close();
      return { ok: false, ...problem };
    }
    return { ok: true, handle, stats, [Symbol.asyncDispose]: () => handle.close() };
  } catch (error) {
    await handle.close().catch(() => {});
    return { ok: false, problem: "error", message: cannot(options, errorMessage(error)) };
  }
}

async function checkIdentity(
  handle: FileHandle,
  stats: Stats,
  options: OpenVerifiedOptions,
): Promise<OpenProblem | undefined> {
  if (stats.isDirectory()) return { problem: "directory" };
  if (!stats.isFile()) return { problem: "special", kind: specialStatsKind(stats) };
  if (stats.nlink > 1) return refused(options, "hard-links", hardLinksReason(stats.nlink));
  const where = await handleLocation(handle, stats, options.path);
  if (where === undefined || !isInside(options.root, where)) {
    return refused(
      options,
      "moved",
      "it changed while it was being opened (a symbolic link or a directory was swapped), " +
        "so it may be a file outside the workspace",
    );
  }
  if (options.guarded !== undefined) {
    const folder = guardedFolder(options.root, where);
    if (folder !== undefined && where !== options.guarded.allowed) {
      return refused(options, "protected", guardedReason(folder));
    }
  }
  const closed = options.closed?.(where);
  if (closed !== undefined) return { problem: "refused", reason: "protected", message: closed };
  const protectedPaths = options.protectedPaths ?? [];
  if (protectedPaths.length === 0) return undefined;
  const byName = where === options.checkedPath ? undefined : await protectedPathMessage(
    options.workspace,
    where,
    protectedPaths,
    options.purpose,
    options.openPaths,
  );
  if (byName !== undefined) return { problem: "refused", reason: "protected", message: byName };
  if (await isProtectedIdentity(options.root, protectedPaths, stats)) {
    return refused(
      options,
      "protected",
      "it is rein's event log under another name; rein records its own history there",
    );
  }
  return undefined;
}

/** "it has 2 hard links, …": why a file with several names is not opened. Pure. */
export function hardLinksReason(links: number): string {
  return `it has ${links} hard links, so it may be a file outside the workspace or rein's event ` +
    "log under another name; the file tools do not read or write hard-linked files";
}

/**
 * The absolute path the open handle lies at, or undefined when it cannot be told or no longer
 * names the handle's file. Linux: the kernel's path of the descriptor. Elsewhere: the real path
 * of `path`, if it names the same device and inode as the handle without a symlink at its end.
 */
async function handleLocation(
  handle: FileHandle,
  stats: Stats,
  path: string,
): Promise<string | undefined> {
  const kernelPath = await kernelPathOf(handle.fd);
  if (kernelPath !== undefined) return kernelPath || undefined;
  try {
    const real = await Deno.realPath(path);
    const check = await Deno.lstat(real);
    return check.isFile && check.dev === stats.dev && check.ino === stats.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `stats` has the device and inode of a protected file (or a file in a protected dir). */
async function isProtectedIdentity(
  root: string,
  protectedPaths: readonly string[],
  stats: Stats,
): Promise<boolean> {
  const same = (info: Deno.FileInfo) => info.dev === stats.dev && info.ino === stats.ino;
  for (const given of protectedPaths) {
    const path = resolve(root, given);
    try {
      const info = await Deno.stat(path);
      if (same(info)) return true;
      if (!info.isDirectory) continue;
      for await (const entry of Deno.readDir(path)) {
        if (entry.isFile && same(await Deno.lstat(resolve(path, entry.name)))) return true;
      }
    } catch {
      // A protected path that does not exist (yet) protects nothing by identity.
    }
  }
  return false;
}

function openFailure(error: unknown, options: OpenVerifiedOptions): OpenVerified {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case "ENOENT":
      return { ok: false, problem: "not-found" };
    case "EEXIST":
      return { ok: false, problem: "exists" };
    case "EISDIR":
      return { ok: false, problem: "directory" };
    case "ELOOP":
      // O_NOFOLLOW met a symlink where the resolved path had a file: one was swapped in.
      return {
        ok: false,
        ...refused(options, "moved", "it became a symbolic link while it was being opened"),
      };
    case "ENXIO":
      // O_NONBLOCK | O_WRONLY on a named pipe with no reader.
      return { ok: false, problem: "special", kind: "a named pipe" };
    default:
      return { ok: false, problem: "error", message: cannot(options, errorMessage(error)) };
  }
}

function refused(
  options: OpenVerifiedOptions,
  reason: RefusalReason,
  detail: string,
): OpenProblem {
  return {
    problem: "refused",
    reason,
    message: `Refusing to ${options.purpose} "${options.display}": ${detail}`,
  };
}

function cannot(options: OpenVerifiedOptions, detail: string): string {
  const verb = options.purpose === "read" ? "read" : "write";
  return `Cannot ${verb} "${options.display}": ${detail.replace(/, open '.*'$/, "")}`;
}

function specialStatsKind(stats: Stats): string {
  if (stats.isFIFO()) return "a named pipe";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return "a special file";
}
