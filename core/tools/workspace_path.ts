import { basename, dirname, isAbsolute, join, relative, resolve } from "../../events/posix_path.ts";
import { isInside } from "../files/is_inside.ts";

/** A user path resolved inside the workspace, or why it was refused. */
export type WorkspacePath =
  | {
    ok: true;
    /** Absolute real path (symlinks resolved; the final part may not exist yet). */
    path: string;
    /** The path relative to the workspace's real root, for messages ("." for the root). */
    relative: string;
    /** The workspace's real root. */
    root: string;
  }
  | { ok: false; message: string };

const MAX_SYMLINK_HOPS = 40;

/**
 * Resolves `userPath` to an absolute real path inside `workspace`, following symbolic links.
 *
 * Relative paths resolve against the workspace; absolute paths are accepted only inside it.
 * `..` that leaves the workspace, absolute paths elsewhere, and symlinks anywhere along the path
 * (the final component included) that lead outside are refused with a message naming the path.
 * A path that does not exist yet resolves through its nearest existing ancestor, so the result
 * is also safe to create. Never throws.
 */
export async function resolveInWorkspace(
  workspace: string,
  userPath: string,
): Promise<WorkspacePath> {
  let root: string;
  try {
    root = await Deno.realPath(workspace);
  } catch (error) {
    return { ok: false, message: `Cannot open the workspace ${workspace}: ${reason(error)}` };
  }
  if (userPath.trim() === "") return { ok: false, message: "Path is empty" };

  const lexical = isAbsolute(userPath) ? resolve(userPath) : resolve(root, userPath);
  let real: string;
  try {
    real = await realPathAllowingMissing(lexical, 0);
  } catch (error) {
    const detail = error instanceof Deno.errors.NotADirectory
      ? await fileInTheWay(root, lexical)
      : reason(error);
    return { ok: false, message: `Cannot resolve path "${userPath}": ${detail}` };
  }

  if (!isInside(root, real)) {
    const lexicallyInside = isInside(root, lexical) || isInside(resolve(workspace), lexical);
    const message = lexicallyInside
      ? `Path "${userPath}" is outside the workspace ${workspace}: ` +
        `a symbolic link leads to ${real}`
      : `Path "${userPath}" is outside the workspace ${workspace}`;
    return { ok: false, message };
  }
  return { ok: true, path: real, relative: relative(root, real) || ".", root };
}

/**
 * Like `Deno.realPath`, but a missing tail is appended to the real path of its nearest existing
 * ancestor. Dangling symlinks are followed to their target, so writing through one cannot land
 * outside the workspace unnoticed.
 */
async function realPathAllowingMissing(path: string, hops: number): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const link = await lstatOrNull(path);
  if (link?.isSymlink) {
    if (hops >= MAX_SYMLINK_HOPS) throw new Error("too many levels of symbolic links");
    const target = await Deno.readLink(path);
    return realPathAllowingMissing(resolve(dirname(path), target), hops + 1);
  }
  const parent = dirname(path);
  if (parent === path) return path;
  return join(await realPathAllowingMissing(parent, hops), basename(path));
}

/** Names the ancestor of `path` that is a file where a directory was expected. */
async function fileInTheWay(root: string, path: string): Promise<string> {
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    const info = await lstatOrNull(dir);
    if (info && !info.isDirectory) return `"${relative(root, dir)}" is a file, not a directory`;
  }
  return "a part of it is not a directory";
}

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch {
    return null;
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why a file tool must not touch `target` (a resolved path from {@link resolveInWorkspace}):
 * it is one of `protectedPaths` or lies inside one, and not inside one of `openPaths`. Those
 * are rein's own paths, the event log and the directories that hold rein's files (`.rein/`),
 * and what stays open inside them (the agent's memory, `.rein/memory/`, only where no symbolic
 * link leads to it); relative ones resolve against the workspace and symlinks are followed.
 * Returns the model-facing message (`verb` is "read", "write" or "edit"), or undefined when the
 * call may go ahead. A protected directory that holds the whole workspace is skipped, as
 * protecting it would refuse every write; pass the log file itself as well so it stays protected
 * then. Never throws.
 */
export async function protectedPathMessage(
  workspace: string,
  target: string,
  protectedPaths: readonly string[],
  verb: "read" | "write" | "edit",
  openPaths: readonly string[] = [],
): Promise<string | undefined> {
  if (protectedPaths.length === 0) return undefined;
  return (await closedPaths(workspace, protectedPaths, openPaths))(target, verb);
}

/**
 * {@link protectedPathMessage} for many targets: resolves `protectedPaths` and `openPaths` once
 * and gives a pure judge of real paths (what grep and glob ask of every file they walk). Never
 * throws.
 */
export async function closedPaths(
  workspace: string,
  protectedPaths: readonly string[],
  openPaths: readonly string[] = [],
): Promise<(target: string, verb: "read" | "write" | "edit") => string | undefined> {
  if (protectedPaths.length === 0) return () => undefined;
  let root: string;
  try {
    root = await Deno.realPath(workspace);
  } catch {
    root = resolve(workspace);
  }
  const real = async (given: string) => {
    try {
      return await realPathAllowingMissing(resolve(root, given), 0);
    } catch {
      return resolve(root, given);
    }
  };
  const open: string[] = [];
  for (const given of openPaths) {
    // An open folder reached through a symbolic link (`.rein/memory -> ../snapshots`) opens
    // nothing: it could lead anywhere in what is closed.
    const path = await real(given);
    const unlinked = join(await real(dirname(resolve(root, given))), basename(given));
    if (path === unlinked) open.push(path);
  }
  const closed: { path: string; directory: boolean }[] = [];
  for (const given of protectedPaths) {
    const path = await real(given);
    if (isInside(path, root)) continue;
    closed.push({ path, directory: (await lstatOrNull(path))?.isDirectory === true });
  }
  const shown = (path: string) => isInside(root, path) ? relative(root, path) || "." : path;
  return (target, verb) => {
    if (open.some((path) => isInside(path, target))) return undefined;
    const guarded = closed.find(({ path }) => isInside(path, target));
    if (guarded === undefined) return undefined;
    const what = guarded.path !== target
      ? `it is in "${shown(guarded.path)}", rein's event log directory`
      : guarded.directory
      ? "it is rein's event log directory"
      : "it is rein's event log";
    return `Refusing to ${verb} "${shown(target)}": ${what}; rein records its own history there`;
  };
}

/** The folders whose files say what runs later outside any sandbox, or what governs the agent. */
const GUARDED_FOLDER = /^\.(claude|git)$/i;

/**
 * The folder that makes a write to `path` (absolute) a question for a person: `.claude` (the
 * settings, hooks and agents that govern rein and Claude Code) or `.git` (git's configuration
 * and hooks, which git runs outside every sandbox), as any part of the path below `root` (a
 * nested repository's `.git` runs hooks too), compared without case (a case-insensitive file
 * system opens `.GIT/config` as `.git/config`). A path outside `root` is judged by all its parts.
 * Pure.
 */
export function guardedFolder(root: string, path: string): ".claude" | ".git" | undefined {
  const rel = isInside(root, path) ? relative(root, path) : path;
  const parts = rel.split(/[\\/]/);
  // A file in a git worktree under `.claude/worktrees/<name>/` is a checkout's, which nothing
  // reads as settings; its own `.claude/` and `.git` stay guarded.
  const inWorktree = parts.length > 3 && parts[0] === ".claude" && parts[1] === "worktrees";
  for (const part of inWorktree ? parts.slice(2) : parts) {
    if (GUARDED_FOLDER.test(part)) return part.toLowerCase() === ".git" ? ".git" : ".claude";
  }
  return undefined;
}

/**
 * Why a file tool refuses to write in `folder` (from {@link guardedFolder}): the permission gate
 * did not ask a person about this file for this call (or no gate ran). Pure.
 */
export function guardedReason(folder: ".claude" | ".git"): string {
  const what = folder === ".git"
    ? "git's configuration and hooks, which git runs outside any sandbox"
    : "the settings, hooks and agents that govern rein";
  return `it lies in ${folder}/ (${what}); only a person may allow a write there, and the ` +
    "permission check of this call did not ask about this file (a symbolic link on the way " +
    "may have changed since)";
}

/** Where a path really leads: its real path, and where each symbolic link on the way pointed. */
export interface RealPath {
  /** The real path; a part that does not exist yet is appended to its nearest real ancestor. */
  real: string;
  /** Each symbolic link's target on the way, made absolute, in the order they were followed. */
  via: string[];
}

/**
 * Resolves the absolute, normalized `path` part by part, following every symbolic link (the
 * last part included, a dangling one too) and noting where each led, as the file tools resolve
 * it ({@link resolveInWorkspace}): a missing part and what follows it are appended as written.
 * Throws on too many links or an error other than a missing file.
 */
export async function realPathWithLinks(path: string): Promise<RealPath> {
  const via: string[] = [];
  let done = "/";
  let rest = path.split("/").filter((part) => part !== "" && part !== ".");
  while (rest.length > 0) {
    const [part, ...after] = rest as [string, ...string[]];
    rest = after;
    if (part === "..") {
      done = dirname(done);
      continue;
    }
    const next = join(done, part);
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(next);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) {
        throw error;
      }
      return { real: resolve(next, ...rest), via };
    }
    if (!info.isSymlink) {
      done = next;
      continue;
    }
    if (via.length >= MAX_SYMLINK_HOPS) throw new Error("too many levels of symbolic links");
    const target = resolve(done, await Deno.readLink(next));
    via.push(target);
    rest = [...target.split("/").filter((part) => part !== "" && part !== "."), ...rest];
    done = "/";
  }
  return { real: done, via };
}

/**
 * What kind of special file `info` describes ("a named pipe", "a socket", …), or undefined for
 * a regular file or a directory. Opening a named pipe or a device can block or never end, so
 * the file tools check this before they open anything. Pure.
 */
export function specialFileKind(info: Deno.FileInfo): string | undefined {
  if (info.isFile || info.isDirectory) return undefined;
  if (info.isFifo) return "a named pipe";
  if (info.isSocket) return "a socket";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  return "a special file";
}
