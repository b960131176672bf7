import type { z } from "zod";
import type { State } from "../state/state.ts";
import type { Tool, ToolResult } from "../tools/tool.ts";
import { idList, taskState } from "./describe_task.ts";
import { createRefusal } from "./task_rules.ts";
import {
  callerOf,
  graphOf,
  hookEvents,
  refused,
  type TaskHookOutcome,
  type TaskHookRunner,
  uniqueIds,
} from "./_task_tool.ts";

type TaskZod = typeof import("./_zod.ts");

function inputSchema(z: TaskZod) {
  return z.strictObject({
    subject: z.string().min(1).describe('A short title, in the imperative: "Write the parser"'),
    description: z.string().optional().describe(
      "What needs to be done, in enough detail for whoever claims it",
    ),
    blockedBy: z.array(z.number().int().min(1)).optional().describe(
      "Numbers of the tasks that must be completed before this one can start",
    ),
  });
}

const ROLE_DESCRIPTION =
  "The role of the teammate meant to do it (as spawned with that role): an idle teammate claims " +
  "it by itself only when its role is this one. Leave it out for any agent";

function roleSchema(z: TaskZod) {
  return inputSchema(z).extend({
    role: z.string().min(1).optional().describe(ROLE_DESCRIPTION),
  });
}

/** Input of create_task (`role` only where the tool takes roles). */
export type CreateTaskInput = z.infer<ReturnType<typeof roleSchema>>;

/** The JSON Schema the model sees; a test checks it equals the zod schema's. */
export const CREATE_TASK_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    subject: {
      type: "string",
      description: 'A short title, in the imperative: "Write the parser"',
      minLength: 1,
    },
    description: {
      type: "string",
      description: "What needs to be done, in enough detail for whoever claims it",
    },
    blockedBy: {
      type: "array",
      description: "Numbers of the tasks that must be completed before this one can start",
      items: { type: "integer", minimum: 1 },
    },
  },
  required: ["subject"],
  additionalProperties: false,
};

/** create_task's JSON Schema where the tool takes a role (sessions with autonomous teammates). */
export const CREATE_TASK_WITH_ROLE_INPUT_SCHEMA: Record<string, unknown> = {
  ...CREATE_TASK_INPUT_SCHEMA,
  properties: {
    ...CREATE_TASK_INPUT_SCHEMA.properties as Record<string, unknown>,
    role: { type: "string", description: ROLE_DESCRIPTION, minLength: 1 },
  },
};

const description =
  `Adds a task to the workspace's task graph, which every session and agent of the workspace shares and which outlives this conversation. Tasks are numbered 1, 2, 3… in the order they are created; the result gives the new task's number.

Give \`blockedBy\` the numbers of the tasks that must be completed first: the task cannot be claimed until they are. Split work into tasks that one agent can finish, with dependencies only where the order matters, so independent tasks can go on at once.`;

/**
 * The create_task tool (Claude Code's TaskCreate): adds a task with the next number, after the
 * session's TaskCreated hooks let it (exit 2 refuses it, their stderr to the model). The number
 * is taken under the log's lock (`decide`), so two processes never take the same one; a hook
 * that ran for a number another process took meanwhile refuses the call, to be made again. An
 * effect: replay serves its result (it depends on what other sessions did). With `roles`, it
 * takes a `role` too (recorded on `task.created`): what autonomous teammates match (sessions
 * recorded before them get the tool without it).
 */
export function createCreateTaskTool(
  hooks?: TaskHookRunner,
  options: { roles?: boolean } = {},
): Tool<CreateTaskInput> {
  const roles = options.roles === true;
  return {
    name: "create_task",
    description,
    schema: () => import("./_zod.ts").then(roles ? roleSchema : inputSchema),
    inputSchema: roles ? CREATE_TASK_WITH_ROLE_INPUT_SCHEMA : CREATE_TASK_INPUT_SCHEMA,
    kind: "effect",
    readOnly: false,
    claudeNames: ["TaskCreate"],
    // The task tools change nothing but the workspace's task graph, in the log.
    permission: "read-only",
    guidance: "For work of several steps with an order, or that other agents or later sessions " +
      "share, keep a task graph: create_task (blockedBy for what must come first), claim_task " +
      "before you start one, complete_task when it is done, list_tasks to see what is ready. " +
      "todo_write stays the checklist for the steps of what you are doing now.",
    summarize: (input) => input.subject,
    async run(input, context) {
      const subject = input.subject;
      const body = input.description ?? "";
      const role = roles ? input.role?.trim() || undefined : undefined;
      const blockedBy = uniqueIds(input.blockedBy);
      const problem = createRefusal(graphOf(context.view()), { subject, blockedBy });
      if (problem !== undefined) return refused(problem);
      const number = graphOf(context.view()).tasks.length + 1;
      const hooked: TaskHookOutcome = hooks
        ? await hooks(context, {
          event: "TaskCreated",
          taskId: String(number),
          subject,
          description: body,
        })
        : { runs: [] };
      const ran = hookEvents(hooked);
      if (hooked.block !== undefined) {
        return refused(`Task not created: a TaskCreated hook blocked it: ${hooked.block}`, ran);
      }
      const who = callerOf(context);
      const decide = (state: State): ToolResult => {
        const graph = graphOf(state);
        const again = createRefusal(graph, { subject, blockedBy });
        if (again !== undefined) return refused(again, ran);
        const id = graph.tasks.length + 1;
        if (ran.length > 0 && id !== number) {
          return refused(
            `Task not created: while the TaskCreated hooks ran for it as task ${number}, ` +
              `another agent created task ${number}. Call create_task again`,
            ran,
          );
        }
        const data = {
          id,
          subject,
          description: body,
          blockedBy,
          ...(role === undefined ? {} : { role }),
        };
        const waits = (blockedBy.length === 0 ? "" : ` (waits for ${idList(blockedBy)})`) +
          (role === undefined ? "" : ` for a ${role}`);
        const node = {
          ...data,
          status: "pending" as const,
          owner: null,
          blocks: [],
          createdBy: who,
        };
        return {
          content: `Created task ${id}: ${subject}${waits}. It is ${taskState(graph, node, who)}`,
          events: [...ran, { type: "task.created", data }],
        };
      };
      return { ...decide(context.view()), decide };
    },
  };
}
