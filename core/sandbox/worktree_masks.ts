import { join, relative } from "../../events/posix_path.ts";
import type { HiddenPath } from "./bwrap_args.ts";

/**
 * Where git worktrees of a workspace are (core/worktrees: Claude Code's folder, and the course's),
 * named here too: the sandbox does not depend on the worktrees mechanism.
 */
const WORKTREE_FOLDERS = [".claude/worktrees", ".worktrees"];

/** Reads a folder's entries (names and whether each is a folder); tests give another. */
export type ReadFolder = (path: string) => { name: string; isDirectory: boolean }[];

/**
 * What a command working in `cwd` (a real path inside the real workspace `root`) must not see of
 * other worktrees: when `cwd` is in a worktree (under `.claude/worktrees/` or `.worktrees/`), every
 * other entry of those folders on the way down to it, so an agent in worktree A reads nothing of
 * worktree B (an empty tmpfs over each folder, /dev/null over each file). Nothing for a `cwd`
 * outside them. Reads the folders (they change as worktrees are made); never throws.
 */
export function otherWorktrees(
  root: string,
  cwd: string,
  readFolder: ReadFolder = readFolderSync,
): HiddenPath[] {
  const hidden: HiddenPath[] = [];
  for (const folder of WORKTREE_FOLDERS) {
    const base = join(root, folder);
    const inside = relative(base, cwd);
    if (inside === "" || inside === ".." || inside.startsWith("../")) continue;
    let at = base;
    for (const part of inside.split("/")) {
      const entries = readFolder(at);
      for (const entry of entries) {
        if (entry.name === part) continue;
        hidden.push({ path: join(at, entry.name), kind: entry.isDirectory ? "directory" : "file" });
      }
      at = join(at, part);
      // The worktree itself (its `.git` file) is reached: what is inside is the agent's.
      if (readFolder(at).some((entry) => entry.name === ".git")) break;
    }
  }
  return hidden;
}

function readFolderSync(path: string): { name: string; isDirectory: boolean }[] {
  try {
    return [...Deno.readDirSync(path)].map((entry) => ({
      name: entry.name,
      isDirectory: entry.isDirectory,
    }));
  } catch {
    return [];
  }
}
