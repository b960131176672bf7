import { join, resolve } from "../../events/posix_path.ts";
import { isInside } from "../files/is_inside.ts";

/** What an entry of a git directory is, as `lstat` sees it. */
export type GitEntryKind = "directory" | "file" | "symlink";

/** What the mounts of one git directory are planned from. Paths are absolute and real. */
export interface GitDirFacts {
  /** The git directory (`.git`, a submodule's or a worktree's git dir, or a common dir). */
  gitDir: string;
  /** The entries directly in it, by name. */
  entries: ReadonlyMap<string, GitEntryKind>;
  /** The real paths of the guarded entries that are symlinks, where they lead somewhere. */
  symlinkTargets?: ReadonlyMap<string, string>;
  /** The text of its `config` and `config.worktree`, for the paths they point git to. */
  configText: string;
  /** The work tree git runs hooks in, against which a relative `core.hooksPath` is taken. */
  workTree: string;
  /** The home directory, for `~/` in configured paths. */
  home?: string | undefined;
  /** The directories commands may change: configured paths elsewhere are read-only already. */
  writable: readonly string[];
}

/** One mount over a git directory or what is in it, applied in order after the writable dirs. */
export interface GitMount {
  path: string;
  /**
   * `pinned`: bound writable onto itself, so that it is a mount point a command cannot rename,
   * remove or replace; `readOnly`: bound read-only (which pins it too).
   */
  access: "pinned" | "readOnly";
}

/** A placeholder to create on the host before mounting, where nothing is, to mount read-only. */
export interface GitPlaceholder {
  path: string;
  kind: "directory" | "file";
}

/** The plan for one git directory. */
export interface GitDirPlan {
  /** Empty directories or files to create first (harmless to git when empty). */
  create: GitPlaceholder[];
  /** The mounts, in order. */
  mounts: GitMount[];
  /**
   * Paths that no mount can keep a command from creating (the git dir's root stays writable for
   * `index.lock`, `HEAD.lock` and the like) and that must not exist once a call has ended.
   */
  tripwires: string[];
}

/**
 * What git takes configuration or code from in a git directory: its configuration, the pointers
 * that move it elsewhere (`commondir`, a worktree's `gitdir`), hooks, `info/` (attributes,
 * excludes, sparse patterns), submodules' and worktrees' git dirs whole, and the legacy remote
 * definitions.
 */
const GUARDED = [
  "config",
  "config.worktree",
  "commondir",
  "gitdir",
  "hooks",
  "info",
  "modules",
  "worktrees",
  "branches",
  "remotes",
];

/** Directories made (empty) where missing, so that a command cannot make them with hooks in. */
const PLACEHOLDER_DIRS = ["hooks", "info"];

/**
 * The mounts that keep commands in the sandbox from changing what git runs or is configured by
 * in one git directory, while they can still commit, branch, stash and fetch: the directory is
 * pinned (bound onto itself, so it cannot be renamed, removed or swapped for a new one) and stays
 * writable, since git writes `index`, `HEAD`, `packed-refs` and the rest by renaming a lock file
 * created beside them; `objects/`, `refs/` and `logs/` stay writable; everything in
 * {@link GUARDED} that exists is bound read-only, and a directory the git dir's own
 * `core.hooksPath` names in a writable dir too. Missing `hooks/` and `info/` are made empty first
 * (but in a linked worktree's git dir, which has a `commondir`: git takes them from the common
 * dir), and an empty
 * `config.worktree` where the config may turn `extensions.worktreeConfig` on.
 *
 * A missing `commondir` cannot be mounted over (an empty one, or any entry at that name, makes
 * every git command fail), so it is a tripwire: the caller removes one that a call created.
 *
 * A symlink among the guarded entries could be replaced (only its target can be mounted over),
 * so then the whole git dir is bound read-only with the targets: safe, but git cannot write in
 * the sandbox.
 *
 * Applies to any git dir: a repository's `.git`, the git dir a `.git` file points to, a linked
 * worktree's `.git/worktrees/<id>` and its common dir (plan the common dir first: its
 * `worktrees/` is bound read-only and the worktree's own dir is pinned inside it). Pure.
 */
export function gitDirMounts(facts: GitDirFacts): GitDirPlan {
  const { gitDir, entries } = facts;
  const at = (name: string) => join(gitDir, name);
  const hooksPaths = configuredPaths(facts.configText, "core", "hookspath")
    .map((path) => expandPath(path, facts.workTree, facts.home))
    .filter((path) => !isInside(gitDir, path) && facts.writable.some((dir) => isInside(dir, path)));
  const symlinks = GUARDED.filter((name) => entries.get(name) === "symlink");
  if (symlinks.length > 0) {
    const targets = symlinks.flatMap((name) => {
      const target = facts.symlinkTargets?.get(name);
      return target && facts.writable.some((dir) => isInside(dir, target)) ? [target] : [];
    });
    return {
      create: [],
      mounts: [gitDir, ...targets, ...hooksPaths].map((path) => ({ path, access: "readOnly" })),
      tripwires: [],
    };
  }
  const create: GitPlaceholder[] = [];
  const mounts: GitMount[] = [{ path: gitDir, access: "pinned" }];
  for (const name of GUARDED) {
    if (entries.has(name)) mounts.push({ path: at(name), access: "readOnly" });
    else if (PLACEHOLDER_DIRS.includes(name) && !entries.has("commondir")) {
      create.push({ path: at(name), kind: "directory" });
      mounts.push({ path: at(name), access: "readOnly" });
    } else if (name === "config.worktree" && /worktreeconfig/i.test(facts.configText)) {
      create.push({ path: at(name), kind: "file" });
      mounts.push({ path: at(name), access: "readOnly" });
    }
  }
  // A hooks directory outside the git dir but in the writable work tree (`.husky/_`, `.githooks`).
  for (const path of hooksPaths) {
    create.push({ path, kind: "directory" });
    mounts.push({ path, access: "readOnly" });
  }
  return { create, mounts, tripwires: entries.has("commondir") ? [] : [at("commondir")] };
}

/**
 * The values of `key` in `section` (names matched case-insensitively, as git does) in git
 * configuration text, unquoted. Subsections are ignored. Pure.
 */
function configuredPaths(text: string, section: string, key: string): string[] {
  const values: string[] = [];
  let current = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(\s+"[^"]*")?\s*\]/.exec(line);
    if (header) {
      current = header[2] ? "" : (header[1] ?? "").toLowerCase();
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (current !== section || !entry || entry[1]?.toLowerCase() !== key) continue;
    const value = (entry[2] ?? "").replace(/\s[#;].*$/, "").trim().replace(/^"(.*)"$/, "$1");
    if (value !== "") values.push(value);
  }
  return values;
}

/** A configured path made absolute: `~/` from home, relative from `base`. Pure. */
function expandPath(path: string, base: string, home: string | undefined): string {
  if (home && (path === "~" || path.startsWith("~/"))) return join(home, path.slice(1));
  return resolve(base, path);
}
