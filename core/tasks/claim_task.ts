import type { z } from "zod";
import type { State } from "../state/state.ts";
import type { Tool, ToolResult } from "../tools/tool.ts";
import { claimRefusal } from "./task_rules.ts";
import { taskOf } from "./tasks_projection.ts";
import { callerOf, graphOf, refused } from "./_task_tool.ts";

type TaskZod = typeof import("./_zod.ts");

function inputSchema(z: TaskZod) {
  return z.strictObject({
    task_id: z.number().int().min(1).describe("The number of the task to claim"),
  });
}

/** Input of claim_task. */
export type ClaimTaskInput = z.infer<ReturnType<typeof inputSchema>>;

/** The JSON Schema the model sees; a test checks it equals the zod schema's. */
export const CLAIM_TASK_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    task_id: { type: "integer", description: "The number of the task to claim", minimum: 1 },
  },
  required: ["task_id"],
  additionalProperties: false,
};

const description =
  `Claims a task of the workspace's task graph for you: it becomes in progress and yours, and no other agent can claim it. Claim a task before you start working on it, and only one that list_tasks shows as ready (pending, unowned, and everything it waits for completed).

If another agent claimed it first, the call fails and says who owns it: pick another ready task.`;

/**
 * The claim_task tool: makes the calling agent the owner of a ready task. Decided under the
 * log's lock on the state caught up with every process (`decide`), so of two agents claiming the
 * same task at once exactly one wins, by log order, and the other is told who owns it. Refused,
 * saying why, for an unknown task, one that is blocked, already owned, completed or cancelled.
 * An effect: replay serves its result (it depends on what other sessions did).
 */
export function createClaimTaskTool(): Tool<ClaimTaskInput> {
  return {
    name: "claim_task",
    description,
    schema: () => import("./_zod.ts").then(inputSchema),
    inputSchema: CLAIM_TASK_INPUT_SCHEMA,
    kind: "effect",
    readOnly: false,
    // Claude Code claims a task with TaskUpdate.
    claudeNames: ["TaskUpdate"],
    claudeFields: { task_id: "taskId" },
    claudeFixed: { status: "in_progress" },
    permission: "read-only",
    summarize: (input) => `#${input.task_id}`,
    run(input, context) {
      const who = callerOf(context);
      const id = input.task_id;
      const decide = (state: State): ToolResult => {
        const graph = graphOf(state);
        const problem = claimRefusal(graph, id, who);
        if (problem !== undefined) return refused(problem);
        const task = taskOf(graph, id)!;
        return {
          content: `Claimed task ${id}: ${task.subject}. It is yours and in progress; call ` +
            "complete_task when it is done" +
            (task.description === "" ? "" : `\n\nDescription:\n${task.description}`),
          events: [{ type: "task.claimed", data: { id } }],
        };
      };
      return Promise.resolve({ ...decide(context.view()), decide });
    },
  };
}
