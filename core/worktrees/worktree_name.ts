/** The folder, under the workspace, where rein (as Claude Code) puts worktrees. */
export const WORKTREES_DIR = ".claude/worktrees";

/** The folder of the course's worktrees (s18), recognised when listing. */
export const COURSE_WORKTREES_DIR = ".worktrees";

/** The prefix of a worktree's branch (Claude Code's): `worktree-<name>`. */
export const BRANCH_PREFIX = "worktree-";

/** The longest name a worktree may have (Claude Code's limit). */
export const MAX_NAME_LENGTH = 64;

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/**
 * Why `name` cannot name a worktree, or undefined when it can. Claude Code's rule: each
 * `/`-separated segment letters, digits, `.`, `_` and `-`, at most 64 characters in all, no
 * `..`. Stricter where git or the shell would take it otherwise: no segment may start with `-`
 * (an option to git) or `.` (git refuses such a branch, and `.` and `..` lead elsewhere), or end
 * with `.lock` or `.`. Pure.
 */
export function worktreeNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string" || name === "") return "a worktree needs a name";
  const quoted = JSON.stringify(name);
  if (name.length > MAX_NAME_LENGTH) {
    return `Invalid worktree name ${quoted}: it is over ${MAX_NAME_LENGTH} characters`;
  }
  if (name.includes("..")) return `Invalid worktree name ${quoted}: it contains ".."`;
  for (const segment of name.split("/")) {
    if (segment === "") {
      return `Invalid worktree name ${quoted}: it has an empty segment (a leading, trailing or ` +
        'doubled "/")';
    }
    if (!SEGMENT.test(segment)) {
      return `Invalid worktree name ${quoted}: each "/"-separated segment may hold only ` +
        'letters, digits, ".", "_" and "-"';
    }
    if (segment.startsWith("-") || segment.startsWith(".")) {
      return `Invalid worktree name ${quoted}: a segment may not start with "${segment[0]}"`;
    }
    if (segment.endsWith(".") || segment.endsWith(".lock")) {
      return `Invalid worktree name ${quoted}: a segment may not end with "." or ".lock"`;
    }
  }
  return undefined;
}

/** The folder of worktree `name`, relative to the workspace (`.claude/worktrees/<name>`). Pure. */
export function worktreeFolder(name: string): string {
  return `${WORKTREES_DIR}/${name}`;
}

/** The branch of worktree `name` (`worktree-<name>`). Pure. */
export function worktreeBranch(name: string): string {
  return `${BRANCH_PREFIX}${name}`;
}

/**
 * Why `base` cannot be the commit a worktree starts from, or undefined. It must be a plain
 * revision: not empty, not starting with `-` (git would take it for an option), no control
 * characters or spaces, at most 256 characters. Pure.
 */
export function baseProblem(base: unknown): string | undefined {
  if (typeof base !== "string" || base === "") return "The base must be a revision";
  const quoted = JSON.stringify(base);
  if (base.startsWith("-")) return `Invalid base ${quoted}: it looks like an option to git`;
  if (base.length > 256 || /\s/.test(base) || [...base].some((c) => c < " " || c === "\x7f")) {
    return `Invalid base ${quoted}: a revision holds no spaces or control characters`;
  }
  return undefined;
}
