import type { HookRan, ReinEvent } from "../../events/event_types.ts";
import type { ToolCallContext } from "../tools/tool.ts";

/** A Claude Code hook event a worktree tool fires, with its fields. */
export type WorktreeHookData =
  | { event: "WorktreeCreate"; name: string }
  | { event: "WorktreeRemove"; worktreePath: string };

/**
 * Runs the session's WorktreeCreate / WorktreeRemove hooks (live: the worktree tools are effects,
 * so replay serves their results and runs no hook): each run, and the reason they blocked, if
 * so. Never throws.
 */
export type WorktreeHookRunner = (
  call: Pick<ToolCallContext, "session" | "callId" | "signal" | "view">,
  data: WorktreeHookData,
) => Promise<{ runs: HookRan[]; block?: string }>;

/** The `hook.ran` events of `runs`, recorded with the call's result. */
export function hookRanEvents(runs: readonly HookRan[]): ReinEvent[] {
  return runs.map((data) => ({ type: "hook.ran", data }));
}
