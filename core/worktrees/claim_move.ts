import type { ReinEvent } from "../../events/event_types.ts";
import { agentPlace } from "../state/agent_place.ts";
import type { State } from "../state/state.ts";
import type { AnyTool, ToolCallContext, ToolResult } from "../tools/tool.ts";
import { moveAgent, moveRefusal } from "./move_agent.ts";
import { worktreeOfTask } from "./worktree_catalog.ts";

const wrapped = new WeakMap<AnyTool, AnyTool>();

/**
 * The `claim_task` tool for a teammate that works where its task is: a claim of a task bound to
 * a worktree also moves the teammate into it (its `agent.moved`, decided with the claim under
 * the log's lock), and a claim of a task bound to none moves it back to the workspace from
 * another worktree — as auto-claim does (core/autonomy). The lead and subagents claim where they
 * are. A worktree another agent works in leaves the claim made and the teammate where it is,
 * said in the result. One object per `claim_task` tool.
 */
export function placedClaim(claim: AnyTool): AnyTool {
  const known = wrapped.get(claim);
  if (known !== undefined) return known;
  const tool: AnyTool = {
    ...claim,
    async run(input: Record<string, unknown>, context: ToolCallContext): Promise<ToolResult> {
      const result = await claim.run(input, context);
      const view = context.view().sessions.byId[context.session];
      const id = input.task_id;
      if (view?.agents[context.agent]?.spawn?.teammate === undefined || typeof id !== "number") {
        return result;
      }
      const decide = (state: State): ToolResult => {
        const decided = result.decide?.(state) ?? result;
        const claimed = decided.events?.some((event) => event.type === "task.claimed");
        return claimed === true && decided.isError !== true
          ? withMove(state, context, id, decided)
          : decided;
      };
      return { ...decide(context.view()), decide };
    },
  };
  wrapped.set(claim, tool);
  return tool;
}

/** `decided` (a claim of task `id`) with the caller's move to where the task is done. Pure. */
function withMove(
  state: State,
  context: Pick<ToolCallContext, "session" | "agent">,
  id: number,
  decided: ToolResult,
): ToolResult {
  const { session, agent } = context;
  const worktree = worktreeOfTask(state, id);
  const now = agentPlace(state.sessions.byId[session], agent);
  if (worktree === undefined && now.worktree === null) return decided;
  const cwd = worktree?.path ?? "";
  const refusal = moveRefusal(state, session, agent, cwd, worktree?.name);
  if (refusal !== undefined) {
    return { ...decided, content: `${decided.content}\n\nYou stay where you are: ${refusal}` };
  }
  const moved = moveAgent(state, session, agent, cwd, worktree?.name).map(({ type, data }) =>
    ({ type, data }) as ReinEvent
  );
  if (moved.length === 0) return decided;
  const where = worktree === undefined
    ? "You work in the workspace again (the task has no worktree)."
    : `You work in its worktree "${worktree.name}" now (${worktree.path}, branch ` +
      `${worktree.branch}): your file tools and commands work there.`;
  return {
    ...decided,
    content: `${decided.content}\n\n${where}`,
    events: [...decided.events ?? [], ...moved],
  };
}
