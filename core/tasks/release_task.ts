import type { z } from "zod";
import type { State } from "../state/state.ts";
import type { Tool, ToolResult } from "../tools/tool.ts";
import { releaseRefusal } from "./task_rules.ts";
import { taskOf } from "./tasks_projection.ts";
import { callerOf, graphOf, refused } from "./_task_tool.ts";

type TaskZod = typeof import("./_zod.ts");

function inputSchema(z: TaskZod) {
  return z.strictObject({
    task_id: z.number().int().min(1).describe("The number of the task to hand back"),
    reason: z.string().min(1).describe("Why you hand it back: what stopped you, what is left"),
  });
}

/** Input of release_task. */
export type ReleaseTaskInput = z.infer<ReturnType<typeof inputSchema>>;

/** The JSON Schema the model sees; a test checks it equals the zod schema's. */
export const RELEASE_TASK_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    task_id: { type: "integer", description: "The number of the task to hand back", minimum: 1 },
    reason: {
      type: "string",
      description: "Why you hand it back: what stopped you, what is left",
      minLength: 1,
    },
  },
  required: ["task_id", "reason"],
  additionalProperties: false,
};

const description =
  `Hands back a task you claimed and cannot finish: it becomes pending and unowned again, so another agent (or you, later) can claim it. Say why in \`reason\`: what stopped you and what is left.

Only the task's owner can release it. Do not release a task that is done: complete it with complete_task.`;

/**
 * The release_task tool: the owner of a task in progress hands it back, with a reason; it is
 * pending and unowned again (`task.released`). Decided under the log's lock (`decide`). Refused,
 * saying why, for an unknown task, one the caller does not own, one never claimed, completed or
 * cancelled. An effect: replay serves its result (it depends on what other sessions did).
 */
export function createReleaseTaskTool(): Tool<ReleaseTaskInput> {
  return {
    name: "release_task",
    description,
    schema: () => import("./_zod.ts").then(inputSchema),
    inputSchema: RELEASE_TASK_INPUT_SCHEMA,
    kind: "effect",
    readOnly: false,
    permission: "read-only",
    summarize: (input) => `#${input.task_id}`,
    run(input, context) {
      const who = callerOf(context);
      const id = input.task_id;
      const reason = input.reason.trim();
      const decide = (state: State): ToolResult => {
        const graph = graphOf(state);
        const problem = releaseRefusal(graph, id, who);
        if (problem !== undefined) return refused(problem);
        return {
          content: `Released task ${id}: ${taskOf(graph, id)!.subject}. It is pending and ` +
            "unowned again: any agent may claim it",
          events: [{ type: "task.released", data: { id, reason } }],
        };
      };
      return Promise.resolve({ ...decide(context.view()), decide });
    },
  };
}
