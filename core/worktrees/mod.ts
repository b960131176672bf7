/**
 * Git worktrees (s18): `create_worktree`, `keep_worktree`, `remove_worktree` (Claude Code's
 * `EnterWorktree` / `ExitWorktree`), the task tool's `isolation: "worktree"`, and the
 * workspace's worktrees as a workspace-wide slice, behind the `worktrees` feature.
 *
 * @module
 */
export {
  CREATE_WORKTREE_INPUT_SCHEMA,
  createCreateWorktreeTool,
  createdText,
  createRefusal,
  type CreateWorktreeInput,
  makeWorktree,
} from "./create_worktree.ts";
export {
  chosenName,
  createEnterWorktreeTool,
  ENTER_WORKTREE_INPUT_SCHEMA,
  enterDecision,
  enteredText,
  type EnterWorktreeInput,
} from "./enter_worktree.ts";
export {
  createExitWorktreeTool,
  EXIT_WORKTREE_INPUT_SCHEMA,
  type ExitWorktreeInput,
} from "./exit_worktree.ts";
export { isolatedTask, isolationName } from "./isolated_task.ts";
export {
  KEEP_WORKTREE_INPUT_SCHEMA,
  keepWorktree,
  type KeepWorktreeInput,
  keepWorktreeTool,
} from "./keep_worktree.ts";
export { holderOf, moveAgent, moveRefusal, placeIn, worktreeHolding } from "./move_agent.ts";
export { removalRefusal } from "./removal_refusal.ts";
export {
  defaultBase,
  NO_WORKTREE_SETUP,
  prepareWorktree,
  sessionWorktreeSetup,
  type WorktreeSetup,
  worktreeSetupOf,
} from "./worktree_setup.ts";
export {
  createRemoveWorktreeTool,
  dropWorktree,
  REMOVE_WORKTREE_INPUT_SCHEMA,
  removedText,
  type RemoveWorktreeInput,
} from "./remove_worktree.ts";
export {
  emptyWorktrees,
  evolveWorktrees,
  liveWorktree,
  type WorktreeCatalog,
  worktreeCatalogProjection,
  type WorktreeEntry,
  worktreeOfTask,
  worktreesOf,
  type WorktreeState,
} from "./worktree_catalog.ts";
export {
  type GitResult,
  porcelainFiles,
  type WorktreeChanges,
  WorktreeGit,
} from "./worktree_git.ts";
export {
  baseProblem,
  BRANCH_PREFIX,
  COURSE_WORKTREES_DIR,
  MAX_NAME_LENGTH,
  worktreeBranch,
  worktreeFolder,
  worktreeNameProblem,
  WORKTREES_DIR,
} from "./worktree_name.ts";
export {
  inGitRepository,
  WORKTREE_MOVES_FEATURE,
  WORKTREES_FEATURE,
  worktreesMechanism,
  type WorktreesOptions,
} from "./worktrees_mechanism.ts";
export { hookRanEvents, type WorktreeHookData, type WorktreeHookRunner } from "./worktree_hooks.ts";
export { renderWorktreeEvent, worktreeLines } from "./worktrees_render.ts";
export { type Git, GIT_TIMEOUT_MS, type GitOutput, runGit, SAFE_GIT_CONFIG } from "./_git.ts";
