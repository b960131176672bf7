import { dirname, isAbsolute, join, normalize } from "../../events/posix_path.ts";
import { recordedSettings } from "../settings/recorded_settings.ts";
import { isRecord } from "../settings/is_record.ts";
import type { State } from "../state/state.ts";
import type { WorktreeGit } from "./worktree_git.ts";

/**
 * Claude Code's `worktree` settings that rein applies to a worktree it makes: `baseRef` (`head`,
 * rein's default and the course's, or `fresh`: the remote's default branch as the repository
 * last fetched it, `origin/HEAD`, else HEAD — rein runs no fetch), `symlinkDirectories` (folders
 * of the main checkout linked into the worktree, `node_modules`) and `sparsePaths` (only these
 * folders checked out). The workspace's `.worktreeinclude` is read as Claude Code reads it.
 */
export interface WorktreeSetup {
  baseRef: "head" | "fresh";
  symlinkDirectories: string[];
  sparsePaths: string[];
}

/** No `worktree` settings. */
export const NO_WORKTREE_SETUP: WorktreeSetup = {
  baseRef: "head",
  symlinkDirectories: [],
  sparsePaths: [],
};

/**
 * The `worktree` settings in `other` (the settings' keys rein does not parse itself): what is
 * not a string list, or a path that leaves the checkout, is left out. Pure.
 */
export function worktreeSetupOf(other: Record<string, unknown> | undefined): WorktreeSetup {
  const worktree = other?.worktree;
  if (!isRecord(worktree)) return NO_WORKTREE_SETUP;
  const paths = (value: unknown) =>
    Array.isArray(value)
      ? value.filter((path): path is string => typeof path === "string" && insidePath(path))
        .map((path) => normalize(path).replace(/\/+$/, ""))
      : [];
  return {
    baseRef: worktree.baseRef === "fresh" ? "fresh" : "head",
    symlinkDirectories: paths(worktree.symlinkDirectories),
    sparsePaths: paths(worktree.sparsePaths),
  };
}

/** The `worktree` settings `session` recorded (its settings files' texts). Pure. */
export function sessionWorktreeSetup(state: State, session: string): WorktreeSetup {
  const snapshot = state.sessions.byId[session]?.settings;
  return snapshot ? worktreeSetupOf(recordedSettings(snapshot).settings.other) : NO_WORKTREE_SETUP;
}

/** The base a worktree starts at when none is given, by `setup`. Live (asks git). */
export async function defaultBase(git: WorktreeGit, setup: WorktreeSetup): Promise<string> {
  if (setup.baseRef !== "fresh") return "HEAD";
  return (await git.resolve("refs/remotes/origin/HEAD")).ok ? "origin/HEAD" : "HEAD";
}

/**
 * What `setup` and `.worktreeinclude` add to the worktree just made at `path` (relative to the
 * workspace): the sparse checkout, the linked folders (those the main checkout has), the copied
 * files (never over one the checkout has). Returns what it did not do, each with why; it never
 * throws. Live only.
 */
export async function prepareWorktree(
  git: WorktreeGit,
  path: string,
  setup: WorktreeSetup,
): Promise<string[]> {
  const problems: string[] = [];
  const folder = join(git.workspace, path);
  if (setup.sparsePaths.length > 0) {
    const sparse = await git.sparse(path, setup.sparsePaths);
    if (!sparse.ok) problems.push(`worktree.sparsePaths not applied: ${sparse.why}`);
  }
  for (const dir of setup.symlinkDirectories) {
    const source = join(git.workspace, dir);
    const target = join(folder, dir);
    const there = await Deno.stat(source).then((info) => info.isDirectory, () => false);
    if (!there || await Deno.lstat(target).then(() => true, () => false)) continue;
    try {
      await Deno.mkdir(dirname(target), { recursive: true });
      await Deno.symlink(source, target);
    } catch (error) {
      problems.push(`Cannot link ${dir}: ${error instanceof Error ? error.message : error}`);
    }
  }
  const included = await git.included();
  if (!included.ok) problems.push(`.worktreeinclude not applied: ${included.why}`);
  for (const file of included.ok ? included.value : []) {
    // Nothing of rein's, of git's or of another worktree.
    if (/^(\.rein|\.git|\.worktrees|\.claude\/worktrees)(\/|$)/.test(file)) continue;
    const target = join(folder, file);
    if (await Deno.lstat(target).then(() => true, () => false)) continue;
    try {
      await Deno.mkdir(dirname(target), { recursive: true });
      await Deno.copyFile(join(git.workspace, file), target);
    } catch (error) {
      problems.push(`Cannot copy ${file}: ${error instanceof Error ? error.message : error}`);
    }
  }
  return problems;
}

function insidePath(path: string): boolean {
  if (path === "" || isAbsolute(path) || path.includes("\0")) return false;
  const normal = normalize(path);
  return normal !== ".." && !normal.startsWith("../") && normal !== "." &&
    !/^\.(git|rein)(\/|$)/.test(normal);
}
