import { GIT_HEAD_SOURCE } from "../environment/git_branch.ts";
import { TASK_TOOL } from "../agents/child_tools.ts";
import type { Mechanism } from "../mechanism.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import { hasFeature } from "../settings/session_features.ts";
import { placedClaim } from "./claim_move.ts";
import { createCreateWorktreeTool } from "./create_worktree.ts";
import { createEnterWorktreeTool } from "./enter_worktree.ts";
import { createExitWorktreeTool } from "./exit_worktree.ts";
import { isolatedTask } from "./isolated_task.ts";
import { keepWorktreeTool } from "./keep_worktree.ts";
import { createRemoveWorktreeTool } from "./remove_worktree.ts";
import { worktreeCatalogProjection } from "./worktree_catalog.ts";
import { WorktreeGit } from "./worktree_git.ts";
import type { WorktreeHookRunner } from "./worktree_hooks.ts";
import { renderWorktreeEvent } from "./worktrees_render.ts";

/** The session feature of worktrees. */
export const WORKTREES_FEATURE = "worktrees";

/**
 * The session feature of agents moving into worktrees (`enter_worktree`, `exit_worktree`): a
 * mechanism of its own name in the harness, so sessions recorded before it get neither tool.
 */
export const WORKTREE_MOVES_FEATURE = "worktree_moves";

/** What the worktrees mechanism is wired with. */
export interface WorktreesOptions {
  /** The workspace, whose git repository the worktrees are of. */
  workspace: string;
  /** Runs the session's WorktreeCreate / WorktreeRemove hooks (live); none when absent. */
  hooks?: WorktreeHookRunner;
  /** Runs git (tests give another); live only. */
  git?: WorktreeGit;
}

const NO_TOOLS: readonly AnyTool[] = [];

/** The task graph's claim (core/tasks), which a teammate's move follows. */
const CLAIM_TASK_TOOL = "claim_task";

/**
 * Git worktrees (s18): `create_worktree` (Claude Code's `EnterWorktree`), `keep_worktree` and
 * `remove_worktree` (`ExitWorktree`'s keep and remove), the `task` tool's
 * `isolation: "worktree"`, and the workspace's worktrees as a workspace-wide slice. On in
 * sessions recorded with the `worktrees` feature whose workspace is in a git repository (its HEAD
 * recorded with the session): as Claude Code's EnterWorktree, always there where it can work, and
 * nowhere else (no tools a session outside git could only fail with).
 */
export function worktreesMechanism(options: WorktreesOptions): Mechanism {
  const git = options.git ?? new WorktreeGit(options.workspace);
  const tools: readonly AnyTool[] = [
    createCreateWorktreeTool(git, options.hooks),
    keepWorktreeTool,
    createRemoveWorktreeTool(git, options.hooks),
  ];
  const moves: readonly AnyTool[] = [
    createEnterWorktreeTool(git, options.hooks),
    createExitWorktreeTool(git, options.hooks),
  ];
  const withMoves = [...tools, ...moves];
  return {
    name: "worktrees",
    feature: WORKTREES_FEATURE,
    catalog: worktreeCatalogProjection,
    // An isolated subagent's worktree is recorded as the child's, outside its loop.
    fedTypes: ["worktree.created", "worktree.removed"],
    tools: (scope) =>
      !inGitRepository(scope)
        ? NO_TOOLS
        : hasFeature(scope.state, scope.session, WORKTREE_MOVES_FEATURE)
        ? withMoves
        : tools,
    // Claude Code's names stand first for create_worktree and remove_worktree, as before.
    toolFacts: [...moves, ...tools],
    filterTools: (scope, pool) => {
      if (!inGitRepository(scope)) return pool;
      // A teammate's claim of a task bound to a worktree moves it there.
      const moves = hasFeature(scope.state, scope.session, WORKTREE_MOVES_FEATURE);
      const placed = (tool: AnyTool) =>
        tool.name === TASK_TOOL
          ? isolatedTask(tool, git)
          : moves && tool.name === CLAIM_TASK_TOOL
          ? placedClaim(tool)
          : tool;
      return pool.some((tool) => placed(tool) !== tool) ? pool.map(placed) : pool;
    },
    render: renderWorktreeEvent,
  };
}

/** Whether the session's workspace is in a git repository, as recorded when it started. Pure. */
export function inGitRepository(scope: Pick<PoolScope, "state" | "session">): boolean {
  const files = scope.state.sessions.byId[scope.session]?.files ?? [];
  return files.some((file) => file.source === GIT_HEAD_SOURCE);
}
