import { join } from "../../events/posix_path.ts";
import { DEFAULT_AGENT_TYPE } from "../agents/built_in_agents.ts";
import { agentTypesOf } from "../agents/agent_set.ts";
import { childAgentName } from "../agents/plan_spawn.ts";
import { agentFolder } from "../state/agent_place.ts";
import type { AnyTool, ToolCallContext, ToolResult } from "../tools/tool.ts";
import { makeWorktree } from "./create_worktree.ts";
import { sessionWorktreeSetup } from "./worktree_setup.ts";
import { dropWorktree } from "./remove_worktree.ts";
import { type WorktreeEntry, worktreesOf } from "./worktree_catalog.ts";
import type { WorktreeGit } from "./worktree_git.ts";

/** The field a `task` call gives to start its subagent in a worktree of its own. */
const ISOLATION = {
  type: "string",
  enum: ["worktree"],
  description: 'Set to "worktree" to start the agent in a new git worktree of its own ' +
    "(removed afterwards if the agent changed nothing)",
};

const wrapped = new WeakMap<AnyTool, AnyTool>();

/**
 * The `task` tool (Claude Code's `Task`/`Agent`) with Claude Code's `isolation: "worktree"`: the
 * subagent is started in a new worktree (`agent-<call id>`, recorded as the child's
 * `worktree.created`, its `agent.spawned`'s `cwd` the worktree's folder), so its file tools, bash
 * and sandbox are confined there; afterwards the worktree is removed if the agent left nothing in
 * it, else kept and named in the result. A type whose definition says `isolation: worktree`
 * (Claude Code's frontmatter) is started so without being asked. Otherwise it is `task` as it
 * was. Described by
 * its JSON Schema alone (the task tool's, with `isolation`). One object per `task` tool.
 */
export function isolatedTask(task: AnyTool, git: WorktreeGit): AnyTool {
  const known = wrapped.get(task);
  if (known !== undefined) return known;
  const { schema: _zod, ...rest } = task;
  const schema = task.inputSchema ?? {};
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const tool: AnyTool = {
    ...rest,
    inputSchema: { ...schema, properties: { ...properties, isolation: ISOLATION } },
    run(input: Record<string, unknown>, context: ToolCallContext) {
      const { isolation, ...plain } = input;
      return isolation === "worktree" || isolatedType(context, plain.subagent_type)
        ? runIsolated(task, git, plain, context)
        : task.run(plain, context);
    },
  };
  wrapped.set(task, tool);
  return tool;
}

async function runIsolated(
  task: AnyTool,
  git: WorktreeGit,
  input: Record<string, unknown>,
  context: ToolCallContext,
): Promise<ToolResult> {
  const state = context.view();
  const view = state.sessions.byId[context.session];
  const type = typeof input.subagent_type === "string" ? input.subagent_type : DEFAULT_AGENT_TYPE;
  const child = childAgentName(type, context.callId);
  if (view?.agents[child]?.spawn != null) return task.run(input, context); // continued
  if (agentFolder(view, context.agent) !== "") {
    return {
      content: 'isolation: "worktree" starts an agent from the workspace\'s root only: you work ' +
        "in a folder of it",
      isError: true,
    };
  }
  if (context.sibling === undefined) {
    return { content: "Subagents cannot run here: no agent loop drives this call", isError: true };
  }
  // Made already when the process died before the child was spawned.
  let entry = madeFor(state, context.session, child);
  if (entry === undefined) {
    const setup = sessionWorktreeSetup(state, context.session);
    const made = await makeWorktree(git, state, { name: isolationName(context.callId) }, setup);
    if ("why" in made) return { content: made.why, isError: true };
    await context.sibling(child).record([{ type: "worktree.created", data: made.created }]);
    entry = madeFor(context.view(), context.session, child);
    if (entry === undefined) return { content: "The worktree was not recorded", isError: true };
  }
  const result = await task.run({ ...input, cwd: entry.path }, context);
  if (result.cancelled) return result;
  const dropped = await dropWorktree(git, context.view(), entry.name, false);
  if ("removed" in dropped) {
    await context.sibling(child).record([{ type: "worktree.removed", data: dropped.removed }]);
    return { ...result, content: `${result.content}\n(Its worktree was unchanged and removed.)` };
  }
  return {
    ...result,
    content: `${result.content}\nIts worktree "${entry.name}" at ${
      join(git.workspace, entry.path)
    } (branch ${entry.branch}) was kept: ${keptBecause(dropped.why)}`,
  };
}

/** Whether the subagent type a call names says `isolation: worktree` in its definition. */
function isolatedType(context: ToolCallContext, type: unknown): boolean {
  const name = typeof type === "string" ? type : DEFAULT_AGENT_TYPE;
  const types = agentTypesOf(context.view(), context.session);
  return types.find((definition) => definition.name === name)?.isolation === "worktree";
}

/** Why a worktree was kept, from its removal's refusal: its first line from "it has". Pure. */
function keptBecause(why: string): string {
  const first = why.split("\n")[0] ?? why;
  return first.replace(/^Worktree "[^"]*" was not removed: /, "").replace(/:$/, "");
}

/** The worktree made for `agent` of `session` that is still there. Pure. */
function madeFor(
  state: ReturnType<ToolCallContext["view"]>,
  session: string,
  agent: string,
): WorktreeEntry | undefined {
  const slice = worktreesOf(state);
  return slice.order.map((name) => slice.byName[name] as WorktreeEntry).find((entry) =>
    entry.state !== "removed" && entry.createdBy.session === session &&
    entry.createdBy.agent === agent
  );
}

/** The worktree name of an isolated subagent: `agent-` and its call's id, made to fit. Pure. */
export function isolationName(callId: string): string {
  const id = callId.replace(/[^A-Za-z0-9_-]/g, "-").replace(/^[-_]+/, "").slice(-40);
  return `agent-${id === "" ? "x" : id}`;
}
