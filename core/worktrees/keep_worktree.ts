import type { State } from "../state/state.ts";
import type { Tool, ToolResult } from "../tools/tool.ts";
import { liveWorktree } from "./worktree_catalog.ts";
import { worktreeNameProblem } from "./worktree_name.ts";

/** Input of keep_worktree. */
export interface KeepWorktreeInput {
  name: string;
}

/** The only description of keep_worktree's input: a JSON Schema. */
export const KEEP_WORKTREE_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: { name: { type: "string", description: "The worktree's name" } },
  required: ["name"],
  additionalProperties: false,
};

/** Keeping worktree `name` in `state`: the result and its `worktree.kept`. Pure. */
export function keepWorktree(state: State, name: string): ToolResult {
  const bad = worktreeNameProblem(name);
  if (bad !== undefined) return { content: bad, isError: true };
  const entry = liveWorktree(state, name);
  if (entry === undefined) return { content: `No worktree named "${name}"`, isError: true };
  if (entry.state === "kept") return { content: `Worktree "${name}" is kept already` };
  return {
    content: `Kept worktree "${name}" at ${entry.path} on branch ${entry.branch}`,
    events: [{ type: "worktree.kept", data: { name } }],
  };
}

/**
 * `keep_worktree` (Claude Code's `ExitWorktree` with `action: "keep"`): leaves the worktree and
 * its branch as they are, recorded. A decider (it runs no git): replay decides it again.
 */
export const keepWorktreeTool: Tool<KeepWorktreeInput> = {
  name: "keep_worktree",
  claudeNames: ["ExitWorktree"],
  claudeFixed: { action: "keep" },
  specifierFields: ["name"],
  description: "Leaves a git worktree made by create_worktree as it is, with its branch, for " +
    "later (to merge, or to work on again); remove_worktree removes it.",
  inputSchema: KEEP_WORKTREE_INPUT_SCHEMA,
  kind: "decider",
  readOnly: false,
  permission: "read-only",
  summarize: (input) => input.name,
  run: (input, context) => Promise.resolve(keepWorktree(context.view(), input.name)),
};
