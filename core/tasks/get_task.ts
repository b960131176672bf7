import type { z } from "zod";
import type { Tool } from "../tools/tool.ts";
import { graphRange, idList, ownerLabel, taskState } from "./describe_task.ts";
import { type TaskGraph, type TaskNode, taskOf, type TaskOwner } from "./tasks_projection.ts";
import { callerOf, graphOf, refused } from "./_task_tool.ts";

type TaskZod = typeof import("./_zod.ts");

function inputSchema(z: TaskZod) {
  return z.strictObject({
    task_id: z.number().int().min(1).describe("The number of the task"),
  });
}

/** Input of get_task. */
export type GetTaskInput = z.infer<ReturnType<typeof inputSchema>>;

/** The JSON Schema the model sees; a test checks it equals the zod schema's. */
export const GET_TASK_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    task_id: { type: "integer", description: "The number of the task", minimum: 1 },
  },
  required: ["task_id"],
  additionalProperties: false,
};

const description =
  `Shows one task of the workspace's task graph in full: subject, status, owner, description, the tasks it waits for and the tasks that wait for it.`;

/**
 * The get_task tool (Claude Code's TaskGet): one task in full ({@link taskText}). Read-only; an
 * effect, since other sessions change the graph: replay serves what it returned.
 */
export function createGetTaskTool(): Tool<GetTaskInput> {
  return {
    name: "get_task",
    description,
    schema: () => import("./_zod.ts").then(inputSchema),
    inputSchema: GET_TASK_INPUT_SCHEMA,
    kind: "effect",
    readOnly: true,
    claudeNames: ["TaskGet"],
    claudeFields: { task_id: "taskId" },
    permission: "read-only",
    summarize: (input) => `#${input.task_id}`,
    run(input, context) {
      const graph = graphOf(context.view());
      const task = taskOf(graph, input.task_id);
      if (task === undefined) {
        return Promise.resolve(
          refused(`Task ${input.task_id} does not exist (${graphRange(graph)})`),
        );
      }
      return Promise.resolve({ content: taskText(graph, task, callerOf(context)) });
    },
  };
}

/** A task in full, as the model reads it. Pure. */
export function taskText(graph: TaskGraph, task: TaskNode, viewer: TaskOwner): string {
  const waitsFor = task.blockedBy.length === 0 ? "nothing" : idList(task.blockedBy);
  const waitedBy = task.blocks.length === 0 ? "nothing" : idList(task.blocks);
  return [
    `Task ${task.id}: ${task.subject}`,
    `Status: ${task.status} (${taskState(graph, task, viewer)})`,
    `Waits for: ${waitsFor}`,
    `Blocks: ${waitedBy}`,
    `Created by: ${ownerLabel(task.createdBy, viewer)}`,
    `Description:${task.description === "" ? " none" : `\n${task.description}`}`,
  ].join("\n");
}
