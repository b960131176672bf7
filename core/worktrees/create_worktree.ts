import { join } from "../../events/posix_path.ts";
import type { ReinEvent } from "../../events/event_types.ts";
import type { WorktreeCreated } from "../../events/payloads/worktree.ts";
import { catalogSliceOf } from "../state/catalog.ts";
import type { State } from "../state/state.ts";
import { taskGraphProjection, taskOf } from "../tasks/tasks_projection.ts";
import type { Tool, ToolCallContext, ToolResult } from "../tools/tool.ts";
import { liveWorktree } from "./worktree_catalog.ts";
import type { WorktreeGit } from "./worktree_git.ts";
import { hookRanEvents, type WorktreeHookRunner } from "./worktree_hooks.ts";
import {
  defaultBase,
  NO_WORKTREE_SETUP,
  prepareWorktree,
  sessionWorktreeSetup,
  type WorktreeSetup,
} from "./worktree_setup.ts";
import {
  baseProblem,
  worktreeBranch,
  worktreeFolder,
  worktreeNameProblem,
} from "./worktree_name.ts";

/** Input of create_worktree. */
export interface CreateWorktreeInput {
  name: string;
  /** The task to bind to the worktree: whoever works on the task works in it. */
  task_id?: number;
  /** The revision the new branch starts at (default `HEAD`). */
  base?: string;
}

/** The only description of create_worktree's input: a JSON Schema. */
export const CREATE_WORKTREE_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    name: {
      type: "string",
      description: 'The worktree\'s name: "/"-separated segments of letters, digits, ".", "_" ' +
        'and "-", at most 64 characters',
    },
    task_id: {
      type: "integer",
      minimum: 1,
      description: "A task of the task graph to bind to the worktree (whoever works on the " +
        "task works in it)",
    },
    base: { type: "string", description: "The revision the branch starts at (default HEAD)" },
  },
  required: ["name"],
  additionalProperties: false,
};

const description =
  `Creates a git worktree of this repository: a separate checkout at .claude/worktrees/<name> on a new branch worktree-<name> (from base, default HEAD), where work can go on apart from the main checkout.

- With task_id, the task is bound to the worktree: an agent working on that task works in it.
- Start a subagent in a worktree of its own with the task tool's isolation: "worktree".
- When the work is merged or no longer needed, call remove_worktree; keep_worktree leaves it and its branch for later.`;

/** Why `input` cannot make a worktree now, in `state`: a name, base or task that does not do. */
export function createRefusal(state: State, input: CreateWorktreeInput): string | undefined {
  const bad = worktreeNameProblem(input.name) ??
    (input.base === undefined ? undefined : baseProblem(input.base));
  if (bad !== undefined) return bad;
  const known = liveWorktree(state, input.name);
  if (known !== undefined) {
    return `A worktree named "${input.name}" exists already (${known.state}) at ${known.path}`;
  }
  if (input.task_id !== undefined) {
    const graph = catalogSliceOf(state.catalog, taskGraphProjection);
    const task = taskOf(graph, input.task_id);
    if (task === undefined) return `No task ${input.task_id} in the task graph`;
    if (task.status === "completed" || task.status === "cancelled") {
      return `Task ${input.task_id} is ${task.status}: bind a worktree to a task still to do`;
    }
  }
  return undefined;
}

/**
 * Makes worktree `input.name` with git (the name and base checked first, every time), set up by
 * Claude Code's `worktree` settings (`setup`: the default base, sparse paths, linked folders) and
 * `.worktreeinclude`, and the `worktree.created` that records it with what of the setup could
 * not be done (`notes`), or why it could not be made. Live only (runs git).
 */
export async function makeWorktree(
  git: WorktreeGit,
  state: State,
  input: CreateWorktreeInput,
  setup: WorktreeSetup = NO_WORKTREE_SETUP,
): Promise<{ created: WorktreeCreated; notes: string[] } | { why: string }> {
  const refusal = createRefusal(state, input);
  if (refusal !== undefined) return { why: refusal };
  const base = input.base ?? await defaultBase(git, setup);
  const commit = await git.resolve(base);
  if (!commit.ok) return { why: `Cannot create worktree "${input.name}": ${commit.why}` };
  const path = worktreeFolder(input.name);
  const branch = worktreeBranch(input.name);
  const added = await git.add(path, branch, commit.value);
  if (!added.ok) return { why: `Cannot create worktree "${input.name}": ${added.why}` };
  const notes = await prepareWorktree(git, path, setup);
  return {
    notes,
    created: {
      name: input.name,
      path,
      branch,
      base,
      baseCommit: commit.value,
      ...(input.task_id === undefined ? {} : { taskId: input.task_id }),
    },
  };
}

/** The model's result for a worktree made in `workspace`. Pure. */
export function createdText(workspace: string, created: WorktreeCreated): string {
  const task = created.taskId === undefined ? "" : `, bound to task ${created.taskId}`;
  return `Created worktree "${created.name}" at ${join(workspace, created.path)} on branch ` +
    `${created.branch} from ${created.base} (${created.baseCommit.slice(0, 7)})${task}`;
}

/**
 * Runs the WorktreeCreate hooks with `input.name` first (exit 2 refuses the worktree), then makes
 * the worktree as `makeWorktree` does on the state after them, set up by the session's settings:
 * what was made with the hooks' `hook.ran` events, or the refused call's result (carrying those
 * events). Live only.
 */
export async function hookedWorktree(
  git: WorktreeGit,
  hooks: WorktreeHookRunner | undefined,
  context: ToolCallContext,
  input: CreateWorktreeInput,
): Promise<
  { created: WorktreeCreated; notes: string[]; hookEvents: ReinEvent[] } | { refused: ToolResult }
> {
  const ran = await hooks?.(context, { event: "WorktreeCreate", name: input.name });
  const hookEvents = hookRanEvents(ran?.runs ?? []);
  if (ran?.block !== undefined) {
    const content = `Worktree not created: a WorktreeCreate hook blocked it: ${ran.block}`;
    return { refused: { content, isError: true, events: hookEvents } };
  }
  const state = context.view();
  const made = await makeWorktree(git, state, input, sessionWorktreeSetup(state, context.session));
  if ("why" in made) return { refused: { content: made.why, isError: true, events: hookEvents } };
  return { ...made, hookEvents };
}

/**
 * `create_worktree` (Claude Code's `EnterWorktree`): `git worktree add` on a new branch
 * `worktree-<name>` at `.claude/worktrees/<name>`, optionally bound to a task. An effect: git runs
 * live and replay serves its result and its `worktree.created`.
 */
export function createCreateWorktreeTool(
  git: WorktreeGit,
  hooks?: WorktreeHookRunner,
): Tool<CreateWorktreeInput> {
  return {
    name: "create_worktree",
    claudeNames: ["EnterWorktree"],
    specifierFields: ["name"],
    description,
    inputSchema: CREATE_WORKTREE_INPUT_SCHEMA,
    kind: "effect",
    readOnly: false,
    // It adds a folder and a branch and changes nothing there was: as Claude Code's
    // EnterWorktree, it does not ask.
    permission: "read-only",
    summarize: (input) => input.name,
    async run(input, context): Promise<ToolResult> {
      const refusal = createRefusal(context.view(), input);
      if (refusal !== undefined) return { content: refusal, isError: true };
      const made = await hookedWorktree(git, hooks, context, input);
      if ("refused" in made) return made.refused;
      return {
        content: [createdText(git.workspace, made.created), ...made.notes].join("\n"),
        events: [...made.hookEvents, { type: "worktree.created", data: made.created }],
      };
    },
  };
}
