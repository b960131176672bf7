import type { z } from "zod";
import type { State } from "../state/state.ts";
import type { Tool, ToolResult } from "../tools/tool.ts";
import { unblockedBy } from "./task_graph.ts";
import { completeRefusal } from "./task_rules.ts";
import { taskOf } from "./tasks_projection.ts";
import {
  callerOf,
  graphOf,
  hookEvents,
  refused,
  type TaskHookOutcome,
  type TaskHookRunner,
} from "./_task_tool.ts";

type TaskZod = typeof import("./_zod.ts");

function inputSchema(z: TaskZod) {
  return z.strictObject({
    task_id: z.number().int().min(1).describe("The number of the task you finished"),
  });
}

/** Input of complete_task. */
export type CompleteTaskInput = z.infer<ReturnType<typeof inputSchema>>;

/** The JSON Schema the model sees; a test checks it equals the zod schema's. */
export const COMPLETE_TASK_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    task_id: { type: "integer", description: "The number of the task you finished", minimum: 1 },
  },
  required: ["task_id"],
  additionalProperties: false,
};

const description =
  `Marks a task you claimed as completed. Only its owner can complete a task, and only when the work is fully done: if tests fail or the work is partial, keep it and say what is left.

The result names the tasks that completing it made ready to claim.`;

/**
 * The complete_task tool: its owner marks a task completed, after the session's TaskCompleted
 * hooks let it (exit 2 keeps it open, their stderr to the model); the result names what it
 * unblocked. Decided under the log's lock (`decide`). Refused, saying why, for an unknown task,
 * one the caller does not own, one never claimed, completed or cancelled. An effect: replay
 * serves its result.
 */
export function createCompleteTaskTool(hooks?: TaskHookRunner): Tool<CompleteTaskInput> {
  return {
    name: "complete_task",
    description,
    schema: () => import("./_zod.ts").then(inputSchema),
    inputSchema: COMPLETE_TASK_INPUT_SCHEMA,
    kind: "effect",
    readOnly: false,
    claudeNames: ["TaskUpdate"],
    claudeFields: { task_id: "taskId" },
    claudeFixed: { status: "completed" },
    permission: "read-only",
    summarize: (input) => `#${input.task_id}`,
    async run(input, context) {
      const who = callerOf(context);
      const id = input.task_id;
      const problem = completeRefusal(graphOf(context.view()), id, who);
      if (problem !== undefined) return refused(problem);
      const task = taskOf(graphOf(context.view()), id)!;
      const hooked: TaskHookOutcome = hooks
        ? await hooks(context, {
          event: "TaskCompleted",
          taskId: String(id),
          subject: task.subject,
          description: task.description,
        })
        : { runs: [] };
      const ran = hookEvents(hooked);
      if (hooked.block !== undefined) {
        return refused(
          `Task ${id} not completed: a TaskCompleted hook blocked it: ${hooked.block}`,
          ran,
        );
      }
      const decide = (state: State): ToolResult => {
        const graph = graphOf(state);
        const again = completeRefusal(graph, id, who);
        if (again !== undefined) return refused(again, ran);
        const ready = unblockedBy(graph, id);
        const unblocked = ready.length === 0
          ? "It made no task ready to claim"
          : `Now ready to claim: ${ready.map((t) => `#${t.id} (${t.subject})`).join(", ")}`;
        return {
          content: `Completed task ${id}: ${taskOf(graph, id)!.subject}. ${unblocked}`,
          events: [...ran, { type: "task.completed", data: { id } }],
        };
      };
      return { ...decide(context.view()), decide };
    },
  };
}
