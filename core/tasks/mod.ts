/**
 * The task graph (s07/s12): the workspace's tasks and their dependencies as a fold of every event
 * of the log, the pure planning over it (what is ready, what a completion unblocks, cycles), the
 * rules each command is checked against, the six tools (create_task, list_tasks, get_task,
 * claim_task, complete_task, update_task) and the graph drawn as a tree.
 *
 * @module
 */
export { createClaimTaskTool } from "./claim_task.ts";
export { createCompleteTaskTool } from "./complete_task.ts";
export { createCreateTaskTool } from "./create_task.ts";
export { createGetTaskTool, taskText } from "./get_task.ts";
export { createListTasksTool, listTasksText } from "./list_tasks.ts";
export { createReleaseTaskTool, RELEASE_TASK_INPUT_SCHEMA } from "./release_task.ts";
export { createUpdateTaskTool } from "./update_task.ts";
export { ownerLabel, taskLine, taskState } from "./describe_task.ts";
export { renderTaskTree } from "./render_task_tree.ts";
export { blockedTasks, cycleThrough, unblockedBy, unblockedTasks } from "./task_graph.ts";
export {
  cancelRefusal,
  claimRefusal,
  completeRefusal,
  createRefusal,
  releaseRefusal,
  updateRefusal,
} from "./task_rules.ts";
export { tasksMechanism, type TasksOptions } from "./tasks_mechanism.ts";
export type { TaskHookData, TaskHookOutcome, TaskHookRunner } from "./_task_tool.ts";
export {
  canUpdate,
  dependencyPath,
  emptyTaskGraph,
  evolveTaskGraph,
  isClaimable,
  openBlockers,
  type TaskGraph,
  type TaskNode,
  type TaskOwner,
  type TaskStatus,
} from "./tasks_projection.ts";
