import { dirname, join, resolve } from "../../events/posix_path.ts";
import { isInside } from "../files/is_inside.ts";
import { gitDirMounts, type GitDirPlan, type GitEntryKind } from "./git_mounts.ts";

/** What the git mounts of an agent placed in a linked worktree are planned from. Paths are real. */
export interface WorktreeGitFacts {
  /** The worktree's `.git` file (`gitdir: <its git dir>`), at or above the agent's folder. */
  dotGit: string;
  /** The worktree's own git dir, the `.git` file's target (`<common>/worktrees/<id>`). */
  gitDir: string;
  /** The entries directly in it, by name. */
  entries: ReadonlyMap<string, GitEntryKind>;
  /** The real paths of its guarded entries that are symlinks. */
  symlinkTargets?: ReadonlyMap<string, string>;
  /** The common dir its `commondir` names. */
  commonDir: string;
  /** The common dir's `config` text, then the worktree's `config.worktree`. */
  configText: string;
  /** The workspace, whose git dirs the workspace's own plan pinned (and guarded). */
  root: string;
  /** The home directory, for `~/` in configured paths. */
  home?: string | undefined;
}

/**
 * The git mounts that let an agent placed in a linked worktree commit there, added after the
 * workspace's (which pin the common dir, so its `objects/`, `refs/`, `logs/` and `packed-refs`
 * are writable, and bind its `config`, `hooks/`, `info/`, `modules/` and `worktrees/` read-only):
 * the worktree's `.git` file read-only, then its own git dir planned as any git dir is
 * (`gitDirMounts`): pinned writable, so git writes its `index`, `HEAD`, `logs/` and their lock
 * files, with `gitdir`, `commondir` and the rest of what redirects or configures git bound
 * read-only over it; the other worktrees' git dirs stay read-only under `worktrees/`. A missing
 * `config.worktree` (git reads it only once the common config turns `extensions.worktreeConfig`
 * on, and then it is made empty and bound read-only) is a tripwire. Nothing when the worktree's
 * git dir is not in `<common>/worktrees/` of a common dir in the workspace: outside the
 * workspace it is read-only as the whole machine is. Pure.
 */
export function worktreeGitMounts(facts: WorktreeGitFacts): GitDirPlan {
  const { gitDir, commonDir } = facts;
  if (!isInside(facts.root, commonDir) || dirname(gitDir) !== join(commonDir, "worktrees")) {
    return { create: [], mounts: [], tripwires: [] };
  }
  const own = gitDirMounts({
    gitDir,
    entries: facts.entries,
    symlinkTargets: facts.symlinkTargets ?? new Map(),
    configText: facts.configText,
    workTree: dirname(facts.dotGit),
    home: facts.home,
    writable: [dirname(facts.dotGit)],
  });
  const configWorktree = join(gitDir, "config.worktree");
  const planned = own.mounts.some((mount) => mount.path === configWorktree);
  return {
    create: own.create,
    mounts: [{ path: facts.dotGit, access: "readOnly" }, ...own.mounts],
    tripwires: [...own.tripwires, ...(planned ? [] : [configWorktree])],
  };
}

/**
 * The facts `worktreeGitMounts` plans from for an agent working in `cwd` (a real path inside the
 * real workspace `root`): the nearest `.git` at or above `cwd` below `root`, when it is a file
 * naming a git dir with a `commondir`; undefined otherwise. Reads the disk; never throws.
 */
export function worktreeGitFacts(
  root: string,
  cwd: string,
  home?: string,
): WorktreeGitFacts | undefined {
  try {
    for (let at = cwd; at !== root && isInside(root, at); at = dirname(at)) {
      const dotGit = join(at, ".git");
      let info: Deno.FileInfo;
      try {
        info = Deno.lstatSync(dotGit);
      } catch {
        continue;
      }
      if (!info.isFile) return undefined;
      const target = /^gitdir:\s*(.+?)\s*$/m.exec(Deno.readTextFileSync(dotGit))?.[1];
      if (target === undefined) return undefined;
      const gitDir = Deno.realPathSync(resolve(at, target));
      const entries = new Map<string, GitEntryKind>();
      const symlinkTargets = new Map<string, string>();
      for (const entry of Deno.readDirSync(gitDir)) {
        const kind = entry.isSymlink ? "symlink" : entry.isDirectory ? "directory" : "file";
        entries.set(entry.name, kind);
        if (kind !== "symlink") continue;
        try {
          symlinkTargets.set(entry.name, Deno.realPathSync(join(gitDir, entry.name)));
        } catch {
          // A dangling link: the whole git dir is bound read-only anyway.
        }
      }
      const read = (path: string) => {
        try {
          return Deno.readTextFileSync(path);
        } catch {
          return "";
        }
      };
      const common = read(join(gitDir, "commondir")).trim();
      if (common === "") return undefined;
      const commonDir = Deno.realPathSync(resolve(gitDir, common));
      const configText = `${read(join(commonDir, "config"))}\n${
        entries.get("config.worktree") === "file" ? read(join(gitDir, "config.worktree")) : ""
      }`;
      return { dotGit, gitDir, entries, symlinkTargets, commonDir, configText, root, home };
    }
  } catch {
    // Not a worktree rein can read: nothing more is made writable.
  }
  return undefined;
}
