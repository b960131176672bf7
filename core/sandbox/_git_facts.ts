import { dirname, join, resolve } from "../../events/posix_path.ts";
import { probePaths } from "./_probe_paths.ts";
import { isInside } from "../files/is_inside.ts";
import { gitDirMounts, type GitDirPlan, type GitEntryKind } from "./git_mounts.ts";

/** The git mounts of every writable directory, or why git there cannot be guarded. */
export type GitGuard = { ok: true; plan: GitDirPlan } | { ok: false; reason: string };

/**
 * Reads what the git mounts of the writable directories (real paths, the workspace first) are
 * planned from, and plans them: each one's `.git` directory (see `gitDirMounts`); a `.git` file
 * bound read-only, with the git dir it points to (and that one's common dir) planned when a
 * command could change it; for a workspace in no repository, an empty `.git` directory created
 * and bound read-only, so that `git init` there fails. A `.git` symlink cannot be pinned (only
 * its target can be mounted over): that is a reason to refuse. A directory rein may not read
 * (an additional directory under the narrowed `--allow-read`) has its `.git` bound read-only
 * whole. Reads the disk, creates nothing.
 */
export async function guardGit(
  writable: readonly string[],
  home: string | undefined,
): Promise<GitGuard> {
  const plan: GitDirPlan = { create: [], mounts: [], tripwires: [] };
  const add = (more: GitDirPlan) => {
    plan.create.push(...more.create);
    plan.mounts.push(...more.mounts);
    plan.tripwires.push(...more.tripwires);
  };
  const writableGitDir = async (path: string, workTree: string, seen: Set<string>) => {
    const real = await Deno.realPath(path).catch(() => undefined);
    if (real === undefined || seen.has(real) || !writable.some((dir) => isInside(dir, real))) {
      return;
    }
    seen.add(real);
    const facts = await gitDirFacts(real, workTree, home, writable);
    // A common dir first: a linked worktree's own git dir is pinned inside its `worktrees/`.
    if (facts.commonDir) await writableGitDir(facts.commonDir, workTree, seen);
    add(gitDirMounts(facts));
  };
  for (const [index, dir] of writable.entries()) {
    const dotGit = join(dir, ".git");
    let kind: GitEntryKind | undefined;
    try {
      kind = await lstatKind(dotGit);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotCapable)) throw error;
      const [probed] = await probePaths([dotGit]);
      if (probed) plan.mounts.push({ path: dotGit, access: "readOnly" });
      continue;
    }
    if (kind === "symlink") {
      return {
        ok: false,
        reason: `"${dotGit}" is a symlink, which a command could replace with a repository of ` +
          "its own whose hooks run at your next git command",
      };
    }
    if (kind === "directory") await writableGitDir(dotGit, dir, new Set());
    else if (kind === "file") {
      plan.mounts.push({ path: dotGit, access: "readOnly" });
      const target = gitFileTarget(await Deno.readTextFile(dotGit));
      if (target !== undefined) await writableGitDir(resolve(dir, target), dir, new Set());
    } else if (index === 0 && !(await inRepository(dirname(dir)))) {
      plan.create.push({ path: dotGit, kind: "directory" });
      plan.mounts.push({ path: dotGit, access: "readOnly" });
    }
  }
  return { ok: true, plan };
}

/** The facts `gitDirMounts` plans from, and the common dir a `commondir` file names. */
async function gitDirFacts(
  gitDir: string,
  workTree: string,
  home: string | undefined,
  writable: readonly string[],
) {
  const entries = new Map<string, GitEntryKind>();
  const symlinkTargets = new Map<string, string>();
  for await (const entry of Deno.readDir(gitDir)) {
    const kind = entry.isSymlink ? "symlink" : entry.isDirectory ? "directory" : "file";
    entries.set(entry.name, kind);
    if (kind !== "symlink") continue;
    const target = await Deno.realPath(join(gitDir, entry.name)).catch(() => undefined);
    if (target !== undefined) symlinkTargets.set(entry.name, target);
  }
  const read = (name: string) =>
    entries.get(name) === "file" ? Deno.readTextFile(join(gitDir, name)) : Promise.resolve("");
  const configText = `${await read("config")}\n${await read("config.worktree")}`;
  const common = (await read("commondir")).trim();
  return {
    gitDir,
    entries,
    symlinkTargets,
    configText,
    workTree,
    home,
    writable,
    commonDir: common === "" ? undefined : resolve(gitDir, common),
  };
}

/** The path a `.git` file points to (`gitdir: <path>`), or undefined. Pure. */
function gitFileTarget(text: string): string | undefined {
  return /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
}

/** What is at `path`, not following a symlink, or undefined; throws NotCapable. */
async function lstatKind(path: string): Promise<GitEntryKind | undefined> {
  try {
    const info = await Deno.lstat(path);
    return info.isSymlink ? "symlink" : info.isDirectory ? "directory" : "file";
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * Whether `dir` or a directory above it holds a `.git`: a workspace inside a repository gets no
 * placeholder, since rein takes the nearest `.git` for the repository's root (its CLAUDE.md files,
 * its branch). A directory rein may not read counts as holding none (the launcher grants reading
 * the repository above the workspace).
 */
async function inRepository(dir: string): Promise<boolean> {
  for (let at = dir;; at = dirname(at)) {
    const kind = await lstatKind(join(at, ".git")).catch(() => undefined);
    if (kind !== undefined) return true;
    if (dirname(at) === at) return false;
  }
}
