import type { z } from "zod";
import type { TodoItem } from "../../events/event_types.ts";
import type { Tool, ToolResult } from "../tools/tool.ts";
import { checkTodos } from "./check_todos.ts";

type TodoZod = typeof import("./_zod.ts");

/** The input's zod schema, built on the tool's first call: zod is not loaded at start-up. */
function inputSchema(z: TodoZod) {
  return z.strictObject({
    todos: z.array(z.strictObject({
      content: z.string().min(1).describe('What to do, in the imperative: "Run the tests"'),
      status: z.enum(["pending", "in_progress", "completed"]),
      activeForm: z.string().min(1).describe(
        'The same in the present continuous, shown while it is in progress: "Running the tests"',
      ),
    })).describe("The whole updated list; it replaces the previous one"),
  });
}

/** Input of the todo_write tool. */
export type TodoWriteInput = z.infer<ReturnType<typeof inputSchema>>;

/** The JSON Schema the model sees: what {@link inputSchema} gives (a test holds them together). */
export const TODO_WRITE_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    todos: {
      type: "array",
      description: "The whole updated list; it replaces the previous one",
      items: {
        type: "object",
        properties: {
          content: {
            type: "string",
            description: 'What to do, in the imperative: "Run the tests"',
            minLength: 1,
          },
          status: { type: "string", enum: ["pending", "in_progress", "completed"] },
          activeForm: {
            type: "string",
            description:
              'The same in the present continuous, shown while it is in progress: "Running the tests"',
            minLength: 1,
          },
        },
        required: ["content", "status", "activeForm"],
        additionalProperties: false,
      },
    },
  },
  required: ["todos"],
  additionalProperties: false,
};

const description =
  `Writes your todo list for the task at hand: a short checklist that the user watches as it changes and that keeps multi-step work on track. Each call sends the whole list, which replaces the previous one.

Each item has \`content\` (what to do, in the imperative: "Fix the failing parser test"), \`activeForm\` (the same in the present continuous, shown while the item is in progress: "Fixing the failing parser test") and \`status\`: pending, in_progress or completed.

Use it when:
- the task needs three or more distinct steps, or careful planning before you start;
- the user gives you several things to do (a numbered or comma-separated list);
- new steps turn up while you work: add them as items.

Skip it for a single simple step or a question you can just answer; a list there is only noise.

Keeping the list:
- Write it as soon as you understand the task, before starting the first step.
- Mark an item in_progress just before you start on it. At most one item may be in_progress; while you work, exactly one should be.
- Mark an item completed right after finishing it; don't save completions up for the end.
- Mark an item completed only when it is fully done. If tests fail, the work is partial or you are blocked, keep it in_progress and add an item for what must be resolved.
- Remove items that no longer apply instead of leaving them pending.`;

/**
 * Creates the todo_write tool (Claude Code's TodoWrite): replaces the calling agent's todo list
 * with the one given, after checking it ({@link checkTodos}). A decider: its result and its
 * `todo.updated` event are a pure function of its input, so replay runs it again and `--verify`
 * checks it. A refused list gets an error result and records nothing.
 */
export function createTodoWriteTool(): Tool<TodoWriteInput> {
  return {
    name: "todo_write",
    description,
    schema: () => import("./_zod.ts").then(inputSchema),
    inputSchema: TODO_WRITE_INPUT_SCHEMA,
    kind: "decider",
    // It changes the agent's state, so it is not run alongside other calls of its response.
    readOnly: false,
    claudeNames: ["TodoWrite"],
    permission: "read-only",
    guidance: "For tasks of several steps, keep a todo list with todo_write: write it before you " +
      "start, mark an item in_progress just before working on it and completed right after it " +
      "is done, one item in progress at a time.",
    summarize: summarizeTodos,
    run: (input) => Promise.resolve(writeTodos(input.todos)),
  };
}

/** The outcome of writing `todos`: the event and a summary for the model, or an error. Pure. */
export function writeTodos(todos: TodoItem[]): ToolResult {
  const problem = checkTodos(todos);
  if (problem !== undefined) return { content: problem, isError: true };
  return {
    content: savedMessage(todos),
    events: [{ type: "todo.updated", data: { todos } }],
  };
}

function savedMessage(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return "Todo list cleared";
  const count = (status: TodoItem["status"]) => todos.filter((t) => t.status === status).length;
  const done = count("completed");
  const items = todos.length === 1 ? "1 item" : `${todos.length} items`;
  if (done === todos.length) return `Todo list saved: all ${items} completed`;
  return `Todo list saved: ${items} (${done} completed, ${count("in_progress")} in progress, ` +
    `${count("pending")} pending). Keep it current as you work: the next item in_progress ` +
    "before you start it, completed as soon as it is done";
}

function summarizeTodos(input: TodoWriteInput): string {
  const todos = input.todos ?? [];
  const done = todos.filter((todo) => todo.status === "completed").length;
  const active = todos.find((todo) => todo.status === "in_progress");
  const progress = `${done}/${todos.length} done`;
  return active ? `${progress}, ${active.activeForm}` : progress;
}
