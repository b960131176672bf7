import type { Mechanism } from "../mechanism.ts";
import type { AnyTool } from "../tools/tool.ts";
import { createClaimTaskTool } from "./claim_task.ts";
import { createCompleteTaskTool } from "./complete_task.ts";
import { createCreateTaskTool } from "./create_task.ts";
import { createGetTaskTool } from "./get_task.ts";
import { createListTasksTool } from "./list_tasks.ts";
import { createUpdateTaskTool } from "./update_task.ts";
import type { TaskHookRunner } from "./_task_tool.ts";
import { taskGraphProjection } from "./tasks_projection.ts";

/** What the tasks mechanism is wired with. */
export interface TasksOptions {
  /** Runs the session's TaskCreated / TaskCompleted hooks (live); none run when absent. */
  hooks?: TaskHookRunner;
}

/**
 * The task graph (s07/s12): the workspace's tasks with their dependencies, shared by every
 * session and process of the workspace. The graph is folded from every event of the log into
 * the catalog (its workspace-wide slice, `state.catalog.tasks`), which catalog
 * snapshots keep. Its six tools decide races by log order: what depends on other processes is
 * decided under the log's lock (`ToolResult.decide`). Sessions recorded without the `tasks`
 * feature (by a rein before the task graph) do not get the tools, so they replay as they ran.
 */
export function tasksMechanism(options: TasksOptions = {}): Mechanism {
  const tools: readonly AnyTool[] = [
    createCreateTaskTool(options.hooks),
    createListTasksTool(),
    createGetTaskTool(),
    createClaimTaskTool(),
    createCompleteTaskTool(options.hooks),
    createUpdateTaskTool(),
  ];
  return {
    name: "tasks",
    feature: "tasks",
    catalog: taskGraphProjection,
    tools: () => tools,
  };
}
