import { join } from "../../events/posix_path.ts";
import type { ReinEvent } from "../../events/event_types.ts";
import { agentPlace } from "../state/agent_place.ts";
import type { Tool, ToolResult } from "../tools/tool.ts";
import { holderOf, placeIn } from "./move_agent.ts";
import { dropWorktree, removedText } from "./remove_worktree.ts";
import { liveWorktree } from "./worktree_catalog.ts";
import type { WorktreeGit } from "./worktree_git.ts";
import { hookRanEvents, type WorktreeHookRunner } from "./worktree_hooks.ts";

/** Input of exit_worktree (Claude Code's ExitWorktree). */
export interface ExitWorktreeInput {
  action: "keep" | "remove";
  /** With `remove`: remove it even with uncommitted changes or unmerged commits. */
  discard_changes?: boolean;
}

/** The only description of exit_worktree's input: a JSON Schema. */
export const EXIT_WORKTREE_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    action: {
      type: "string",
      enum: ["keep", "remove"],
      description: "keep: leave the worktree and its branch for later; remove: remove both",
    },
    discard_changes: {
      type: "boolean",
      description: "With remove: remove it even though it has uncommitted changes or commits " +
        "not merged into its base, throwing them away",
    },
  },
  required: ["action"],
  additionalProperties: false,
};

const description =
  `Leaves the worktree you entered with enter_worktree and moves you back to where you were before. action "keep" leaves the worktree and its branch as they are; "remove" removes both, refused (listing them) while it has uncommitted changes or commits not merged into its base, unless discard_changes is true.`;

/**
 * `exit_worktree` (Claude Code's `ExitWorktree {action, discard_changes}`): the calling agent
 * leaves the worktree it is in for the folder it was in before it entered one (its `agent.moved`),
 * keeping the worktree (`worktree.kept`) or removing it with git (`worktree.removed`, refused
 * while it holds changes, or while another agent works in it). An effect: replay serves it.
 */
export function createExitWorktreeTool(
  git: WorktreeGit,
  hooks?: WorktreeHookRunner,
): Tool<ExitWorktreeInput> {
  return {
    name: "exit_worktree",
    claudeNames: ["ExitWorktree"],
    specifierFields: ["action"],
    description,
    inputSchema: EXIT_WORKTREE_INPUT_SCHEMA,
    kind: "effect",
    readOnly: false,
    // It may throw work away: it asks unless a rule allows it (as remove_worktree).
    permission: "other",
    summarize: (input) => input.action,
    async run(input, context): Promise<ToolResult> {
      const state = context.view();
      const place = agentPlace(state.sessions.byId[context.session], context.agent);
      const name = place.worktree;
      if (name === null) {
        return {
          content: "You are not in a worktree: exit_worktree leaves one entered with " +
            "enter_worktree",
          isError: true,
        };
      }
      const back = placeIn(state, context.session, place.from);
      const moved: ReinEvent = {
        type: "agent.moved",
        data: "why" in back ? { cwd: "" } : back,
      };
      const original = join(git.workspace, "why" in back ? "" : back.cwd);
      const entry = liveWorktree(state, name);
      if (input.action === "keep" || entry === undefined) {
        const kept: ReinEvent[] = entry?.state === "active"
          ? [{ type: "worktree.kept", data: { name } }]
          : [];
        return {
          content: `Left worktree "${name}"${entry ? ` (kept, on branch ${entry.branch})` : ""}` +
            `: your working directory is ${original} again`,
          events: [...kept, moved],
        };
      }
      const holder = holderOf(state, context.session, name, context.agent);
      if (holder !== undefined) {
        return {
          content: `Cannot remove worktree "${name}": ${holder} works in it too. Call again ` +
            'with action "keep"',
          isError: true,
        };
      }
      const dropped = await dropWorktree(git, state, name, input.discard_changes === true);
      if ("why" in dropped) return { content: dropped.why, isError: true };
      const ran = await hooks?.(context, {
        event: "WorktreeRemove",
        worktreePath: join(git.workspace, entry.path),
      });
      return {
        content: `${removedText(dropped.removed)}: your working directory is ${original} again`,
        events: [
          { type: "worktree.removed", data: dropped.removed },
          moved,
          ...hookRanEvents(ran?.runs ?? []),
        ],
      };
    },
  };
}
