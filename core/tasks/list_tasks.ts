import type { z } from "zod";
import type { Tool } from "../tools/tool.ts";
import { idList, taskLine } from "./describe_task.ts";
import { unblockedTasks } from "./task_graph.ts";
import type { TaskGraph, TaskOwner, TaskStatus } from "./tasks_projection.ts";
import { callerOf, graphOf } from "./_task_tool.ts";

type TaskZod = typeof import("./_zod.ts");

function inputSchema(z: TaskZod) {
  return z.strictObject({});
}

/** Input of list_tasks: none. */
export type ListTasksInput = z.infer<ReturnType<typeof inputSchema>>;

/** The JSON Schema the model sees; a test checks it equals the zod schema's. */
export const LIST_TASKS_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {},
  additionalProperties: false,
};

const description =
  `Lists every task of the workspace's task graph, one line each: its number, status, subject, and who owns it or what it waits for; then the tasks that are ready to claim. Other agents and sessions change the graph too, so list it again before choosing what to claim.`;

/**
 * The list_tasks tool (Claude Code's TaskList): the workspace's task graph as lines for the
 * model ({@link listTasksText}). Read-only; an effect, since other sessions change the graph:
 * replay serves what it returned.
 */
export function createListTasksTool(): Tool<ListTasksInput> {
  return {
    name: "list_tasks",
    description,
    schema: () => import("./_zod.ts").then(inputSchema),
    inputSchema: LIST_TASKS_INPUT_SCHEMA,
    kind: "effect",
    readOnly: true,
    claudeNames: ["TaskList"],
    permission: "read-only",
    summarize: () => "",
    run: (_input, context) =>
      Promise.resolve({ content: listTasksText(graphOf(context.view()), callerOf(context)) }),
  };
}

/**
 * The task graph as the model reads it: a count by status, a line per task in number order
 * (`#4 [pending] Ship it — blocked by #2 (in progress, claimed by you)`), and the tasks ready to
 * claim. Pure.
 */
export function listTasksText(graph: TaskGraph, viewer: TaskOwner): string {
  if (graph.tasks.length === 0) return "No tasks yet. Add one with create_task";
  const counts = new Map<TaskStatus, number>();
  for (const task of graph.tasks) counts.set(task.status, (counts.get(task.status) ?? 0) + 1);
  const summary = (["completed", "in_progress", "pending", "cancelled"] as const)
    .flatMap((status) => counts.get(status) ? [`${counts.get(status)} ${status}`] : [])
    .join(", ");
  const ready = unblockedTasks(graph).map((task) => task.id);
  return [
    `${graph.tasks.length} task${graph.tasks.length === 1 ? "" : "s"} (${summary}):`,
    ...graph.tasks.map((task) => taskLine(graph, task, viewer)),
    ready.length === 0 ? "No task is ready to claim" : `Ready to claim: ${idList(ready)}`,
  ].join("\n");
}
