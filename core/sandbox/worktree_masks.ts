import { dirname, join, relative } from "../../events/posix_path.ts";
import type { HiddenPath } from "./bwrap_args.ts";

/**
 * Where git worktrees of a workspace are (core/worktrees: Claude Code's folder, and the course's),
 * named here too: the sandbox does not depend on the worktrees mechanism.
 */
const WORKTREE_FOLDERS = [".claude/worktrees", ".worktrees"];

/** Reads a folder's entries (names and whether each is a folder); tests give another. */
export type ReadFolder = (path: string) => { name: string; isDirectory: boolean }[];

/** The folders of the repository's worktrees, as git lists them; tests give another. */
export type GitWorktrees = (root: string) => string[];

/**
 * What a command working in `cwd` (a real path inside the real workspace `root`) must not see of
 * other worktrees: when `cwd` is in a worktree (under `.claude/worktrees/` or `.worktrees/`), every
 * other entry of those folders on the way down to it, and every other worktree git knows there
 * (`.git/worktrees/<id>/gitdir`: a teammate's own Deno flags may deny it the folders' listing),
 * so an agent in worktree A reads nothing of worktree B (an empty tmpfs over each folder,
 * /dev/null over each file). Nothing for a `cwd` outside them. Reads the folders (they change as
 * worktrees are made); never throws.
 */
export function otherWorktrees(
  root: string,
  cwd: string,
  readFolder: ReadFolder = readFolderSync,
  gitWorktrees: GitWorktrees = gitWorktreesSync,
): HiddenPath[] {
  const hidden: HiddenPath[] = [];
  const covered = (path: string) =>
    hidden.some((known) => path === known.path || path.startsWith(`${known.path}/`));
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
    for (const worktree of gitWorktrees(root)) {
      const inside = relative(base, worktree);
      if (inside === "" || inside === ".." || inside.startsWith("../")) continue;
      const mine = cwd === worktree || cwd.startsWith(`${worktree}/`) ||
        worktree.startsWith(`${cwd}/`);
      if (!mine && !covered(worktree)) hidden.push({ path: worktree, kind: "directory" });
    }
  }
  return hidden;
}

function gitWorktreesSync(root: string): string[] {
  const folder = join(root, ".git", "worktrees");
  try {
    return [...Deno.readDirSync(folder)].flatMap((entry) => {
      try {
        const gitdir = Deno.readTextFileSync(join(folder, entry.name, "gitdir")).trim();
        return gitdir.startsWith("/") ? [dirname(gitdir)] : [];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
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

/**
 * What a command working in `cwd` (a real path inside the real workspace `root`) may read but not
 * change of the other checkouts' git state, when `cwd` is in a worktree (under `.claude/worktrees/`
 * or `.worktrees/`): the main checkout's `HEAD` and `index`, and the loose ref file of each branch
 * another checkout (the main one, another worktree) has checked out, so that an agent in worktree
 * A cannot move worktree B's branch or the main branch (`git update-ref`, `git branch -f`) nor
 * rewrite the main checkout's staging area, while it still writes objects and its own branch.
 * Existing files only (a branch only packed is not covered); nothing for a `cwd` outside the
 * worktree folders. Reads the git dir; never throws.
 */
export function otherCheckouts(root: string, cwd: string): string[] {
  const inWorktree = WORKTREE_FOLDERS.some((folder) => {
    const inside = relative(join(root, folder), cwd);
    return inside !== "" && inside !== ".." && !inside.startsWith("../");
  });
  if (!inWorktree) return [];
  const gitDir = join(root, ".git");
  const heads = [join(gitDir, "HEAD")];
  try {
    for (const entry of Deno.readDirSync(join(gitDir, "worktrees"))) {
      const at = join(gitDir, "worktrees", entry.name);
      try {
        const worktree = dirname(Deno.readTextFileSync(join(at, "gitdir")).trim());
        if (cwd === worktree || cwd.startsWith(`${worktree}/`)) continue;
      } catch {
        // A worktree git no longer knows the folder of: still not this agent's.
      }
      heads.push(join(at, "HEAD"));
    }
  } catch {
    // No linked worktrees.
  }
  const paths = [join(gitDir, "HEAD"), join(gitDir, "index")];
  for (const head of heads) {
    try {
      const ref = /^ref:\s*(refs\/heads\/\S+)\s*$/.exec(Deno.readTextFileSync(head).trim())?.[1];
      if (ref !== undefined && !ref.split("/").includes("..")) paths.push(join(gitDir, ref));
    } catch {
      // No HEAD there.
    }
  }
  return [...new Set(paths)].filter((path) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  });
}
