import type { SessionView } from "../state/sessions.ts";
import { TASK_TOOL } from "./child_tools.ts";

/**
 * How deep subagents may nest. The lead and each teammate are at depth 0, a subagent one deeper
 * than the agent whose `task` call started it; an agent at this depth starts no subagent. A
 * subagent gets `task` only when its definition lists `Task` (Claude Code's subagents cannot
 * start subagents at all), so this bounds what such definitions can do.
 */
export const MAX_SUBAGENT_DEPTH = 3;

/**
 * How many `task` calls of one model answer start a subagent: those after the first this many
 * (in the answer's order) are refused. Claude Code runs the task calls of one answer at once.
 */
export const MAX_TASKS_PER_ANSWER = 10;

/**
 * How deep `agent` is: 0 for an agent no `task` call started (the lead, a teammate), else one
 * more than the agent that started it, following the `agent.spawned` records of the log. A chain
 * that loops back on itself (only a forged log can hold one) counts as deeper than any cap. Pure.
 */
export function subagentDepth(view: SessionView, agent: string): number {
  let depth = 0;
  const seen = new Set<string>();
  for (let name = agent; !seen.has(name);) {
    seen.add(name);
    const parent = view.agents[name]?.spawn?.parent;
    if (parent === undefined) return depth;
    depth++;
    name = parent;
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * Why the `task` call `callId` of `agent` may not start a subagent, worded for the model, or
 * null when it may: the agent is at {@link MAX_SUBAGENT_DEPTH}, or the call comes after the first
 * {@link MAX_TASKS_PER_ANSWER} task calls of its answer. A pure function of the log's state, so
 * replay decides as the live run did.
 */
export function spawnRefusal(view: SessionView, agent: string, callId: string): string | null {
  const depth = subagentDepth(view, agent);
  if (depth >= MAX_SUBAGENT_DEPTH) {
    return `Cannot start a subagent: subagents nest at most ${MAX_SUBAGENT_DEPTH} deep, and ` +
      "this agent is at that depth. Do the task yourself with your other tools";
  }
  const position = taskPosition(view, agent, callId);
  if (position >= MAX_TASKS_PER_ANSWER) {
    return `Cannot start a subagent: one answer may start at most ${MAX_TASKS_PER_ANSWER} ` +
      `subagents, and this is task call ${position + 1} of the answer. Wait for the ` +
      "others' results, then start the rest in a later answer";
  }
  return null;
}

/** How many task calls come before `callId` in the assistant message that holds it. Pure. */
function taskPosition(view: SessionView, agent: string, callId: string): number {
  const messages = view.agents[agent]?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== "assistant") continue;
    let before = 0;
    for (const block of message.content) {
      if (block.type !== "tool_use") continue;
      if (block["id"] === callId) return before;
      if (block["name"] === TASK_TOOL) before++;
    }
  }
  return 0;
}
