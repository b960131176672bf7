import type { HookRan, ReinEvent } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";
import type { ToolCallContext, ToolResult } from "../tools/tool.ts";
import { catalogSliceOf } from "../state/catalog.ts";
import { type TaskGraph, taskGraphProjection, type TaskOwner } from "./tasks_projection.ts";

/** The workspace's task graph in a state. Throws when the state folds no task graph. */
export function graphOf(state: State): TaskGraph {
  return catalogSliceOf(state.catalog, taskGraphProjection);
}

/** The agent making a call, as an owner. */
export function callerOf(context: { session: string; agent: string }): TaskOwner {
  return { session: context.session, agent: context.agent };
}

/** An error result for the model, with the events recorded anyway (hooks that ran). */
export function refused(content: string, events: ReinEvent[] = []): ToolResult {
  return events.length === 0 ? { content, isError: true } : { content, isError: true, events };
}

/** A Claude Code hook event a task tool fires, with its task. */
export interface TaskHookData {
  event: "TaskCreated" | "TaskCompleted";
  /** The task's number as Claude Code gives task ids: a string. */
  taskId: string;
  subject: string;
  description: string;
}

/** What the hooks of a task event did: their runs, and the reason they blocked it, if so. */
export interface TaskHookOutcome {
  runs: HookRan[];
  block?: string;
}

/**
 * Runs the TaskCreated or TaskCompleted hooks the session's settings select, live (the task
 * tools are effects: replay serves their results and never runs hooks). Never throws.
 */
export type TaskHookRunner = (
  call: Pick<ToolCallContext, "session" | "agent" | "callId" | "signal" | "view">,
  data: TaskHookData,
) => Promise<TaskHookOutcome>;

/** The `hook.ran` events of `outcome`, recorded with the call's result. */
export function hookEvents(outcome: TaskHookOutcome): ReinEvent[] {
  return outcome.runs.map((data) => ({ type: "hook.ran", data }));
}

/** Ids given by the model, each once, in the order given. */
export function uniqueIds(ids: readonly number[] | undefined): number[] {
  return [...new Set(ids ?? [])];
}
