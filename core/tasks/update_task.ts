import type { z } from "zod";
import type { ReinEvent, TaskUpdated } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";
import type { Tool, ToolResult } from "../tools/tool.ts";
import { idList, ownerLabel, taskState } from "./describe_task.ts";
import { cancelRefusal, updateRefusal } from "./task_rules.ts";
import { type TaskGraph, taskOf, type TaskOwner } from "./tasks_projection.ts";
import { callerOf, graphOf, refused, uniqueIds } from "./_task_tool.ts";

type TaskZod = typeof import("./_zod.ts");

function inputSchema(z: TaskZod) {
  const ids = (what: string) => z.array(z.number().int().min(1)).optional().describe(what);
  return z.strictObject({
    task_id: z.number().int().min(1).describe("The number of the task to change"),
    subject: z.string().min(1).optional().describe("A new title"),
    description: z.string().optional().describe("A new description, replacing the old one"),
    addBlockedBy: ids("Tasks it must also wait for (only while it is pending)"),
    removeBlockedBy: ids("Tasks it should no longer wait for (only while it is pending)"),
    cancel: z.boolean().optional().describe("Cancel it: it will not be done"),
    reason: z.string().optional().describe("Why it is cancelled"),
  });
}

/** Input of update_task. */
export type UpdateTaskInput = z.infer<ReturnType<typeof inputSchema>>;

const ids = (description: string) => ({
  type: "array",
  description,
  items: { type: "integer", minimum: 1 },
});

/** The JSON Schema the model sees; a test checks it equals the zod schema's. */
export const UPDATE_TASK_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    task_id: { type: "integer", description: "The number of the task to change", minimum: 1 },
    subject: { type: "string", description: "A new title", minLength: 1 },
    description: { type: "string", description: "A new description, replacing the old one" },
    addBlockedBy: ids("Tasks it must also wait for (only while it is pending)"),
    removeBlockedBy: ids("Tasks it should no longer wait for (only while it is pending)"),
    cancel: { type: "boolean", description: "Cancel it: it will not be done" },
    reason: { type: "string", description: "Why it is cancelled" },
  },
  required: ["task_id"],
  additionalProperties: false,
};

const description =
  `Changes a task of the workspace's task graph: its subject or description, the tasks it waits for (addBlockedBy, removeBlockedBy: only while it is pending, and never so that tasks wait for each other in a cycle), or cancels it (cancel, with a reason) when it will not be done.

To take or finish a task, use claim_task and complete_task instead.`;

/**
 * The update_task tool: replaces a task's subject or description, adds or removes dependencies,
 * cancels it; what it changes is checked under the log's lock (`decide`) and refused, saying
 * why, for an unknown task or dependency, a cycle (named), a dependency change once the task is
 * no longer pending, or a task already done. Cancelling names the tasks left waiting for it. An
 * effect: replay serves its result.
 */
export function createUpdateTaskTool(): Tool<UpdateTaskInput> {
  return {
    name: "update_task",
    description,
    schema: () => import("./_zod.ts").then(inputSchema),
    inputSchema: UPDATE_TASK_INPUT_SCHEMA,
    kind: "effect",
    readOnly: false,
    claudeNames: ["TaskUpdate"],
    claudeFields: { task_id: "taskId" },
    permission: "read-only",
    summarize: (input) => `#${input.task_id}${input.cancel ? " (cancel)" : ""}`,
    run(input, context) {
      const who = callerOf(context);
      const update: TaskUpdated = {
        id: input.task_id,
        ...(input.subject === undefined ? {} : { subject: input.subject }),
        ...(input.description === undefined ? {} : { description: input.description }),
        ...(input.addBlockedBy?.length ? { addBlockedBy: uniqueIds(input.addBlockedBy) } : {}),
        ...(input.removeBlockedBy?.length
          ? { removeBlockedBy: uniqueIds(input.removeBlockedBy) }
          : {}),
      };
      const changes = Object.keys(update).length > 1;
      if (!changes && input.cancel !== true) {
        return Promise.resolve(refused(
          `Nothing to change in task ${input.task_id}: give subject, description, addBlockedBy, ` +
            "removeBlockedBy, or cancel",
        ));
      }
      const decide = (state: State): ToolResult =>
        decideUpdate(graphOf(state), update, changes, input, who);
      return Promise.resolve({ ...decide(context.view()), decide });
    },
  };
}

function decideUpdate(
  graph: TaskGraph,
  update: TaskUpdated,
  changes: boolean,
  input: UpdateTaskInput,
  who: TaskOwner,
): ToolResult {
  const problem = (changes ? updateRefusal(graph, update) : undefined) ??
    (input.cancel ? cancelRefusal(graph, update.id) : undefined);
  if (problem !== undefined) return refused(problem);
  const events: ReinEvent[] = [];
  const id = update.id;
  const task = taskOf(graph, id)!;
  const subject = update.subject ?? task.subject;
  const parts: string[] = [];
  if (changes) {
    events.push({ type: "task.updated", data: update });
    parts.push(`Updated task ${id} (${subject}): ${updateWords(update).join("; ")}`);
  }
  if (input.cancel) {
    const reason = input.reason?.trim() ? { reason: input.reason.trim() } : {};
    events.push({ type: "task.cancelled", data: { id, ...reason } });
    const owned = task.owner !== null && task.status === "in_progress"
      ? ` (it was claimed by ${ownerLabel(task.owner, who)})`
      : "";
    parts.push(`Cancelled task ${id} (${subject})${owned}`);
    const left = task.blocks.filter((n) => taskOf(graph, n)?.status === "pending");
    if (left.length > 0) {
      parts.push(
        `Still waiting for it: ${idList(left)}; remove the dependency with update_task ` +
          "(removeBlockedBy) or cancel them",
      );
    }
  } else {
    const removed = update.removeBlockedBy ?? [];
    const blockedBy = [
      ...task.blockedBy.filter((dep) => !removed.includes(dep)),
      ...update.addBlockedBy ?? [],
    ];
    parts.push(`It is ${taskState(graph, { ...task, ...update, blockedBy }, who)}`);
  }
  return { content: parts.join(". "), events };
}

function updateWords(update: TaskUpdated): string[] {
  const said: string[] = [];
  const replaced = [
    ...(update.subject === undefined ? [] : ["subject"]),
    ...(update.description === undefined ? [] : ["description"]),
  ];
  if (replaced.length > 0) said.push(`${replaced.join(" and ")} replaced`);
  if (update.addBlockedBy) said.push(`now also waits for ${idList(update.addBlockedBy)}`);
  if (update.removeBlockedBy) said.push(`no longer waits for ${idList(update.removeBlockedBy)}`);
  return said;
}
