import type { EventTable } from "./_payload.ts";

/**
 * A git worktree was made for the workspace's repository (`create_worktree`, Claude Code's
 * `EnterWorktree`, or a subagent started with `isolation: "worktree"`): `git worktree add` on a
 * new branch. Recorded with the result of the call that ran git (an effect: replay serves it).
 */
export interface WorktreeCreated {
  /** The worktree's name (each `/`-separated segment letters, digits, `.`, `_`, `-`). */
  name: string;
  /** Its folder relative to the workspace: `.claude/worktrees/<name>`. */
  path: string;
  /** Its branch: `worktree-<name>`. */
  branch: string;
  /** The base as given (`HEAD` unless another was), which its commits are checked against. */
  base: string;
  /** The commit the branch started at. */
  baseCommit: string;
  /** The task bound to it, if one was: a teammate that claims the task works in it. */
  taskId?: number;
}

/** A worktree was left as it is, with its branch (`keep_worktree`, `ExitWorktree` keep). */
export interface WorktreeKept {
  name: string;
}

/**
 * A worktree was removed with its branch (`remove_worktree`, `ExitWorktree` remove, or an
 * isolated subagent's worktree it left unchanged).
 */
export interface WorktreeRemoved {
  name: string;
  /** Files with uncommitted changes that were thrown away (`discard_changes`). */
  discardedFiles?: string[];
  /** Commits not merged into the base that were thrown away, as `<short sha> <subject>`. */
  discardedCommits?: string[];
}

/** Git worktrees (s18): where agents work apart on one repository. */
export interface WorktreeEvents {
  "worktree.created": WorktreeCreated;
  "worktree.kept": WorktreeKept;
  "worktree.removed": WorktreeRemoved;
}

/** The event types of WorktreeEvents, for validation on read. */
export const WORKTREE_EVENTS: EventTable<WorktreeEvents> = {
  "worktree.created": true,
  "worktree.kept": true,
  "worktree.removed": true,
};
