import type { WorktreeRemoved } from "../../events/payloads/worktree.ts";
import type { State } from "../state/state.ts";
import type { Tool, ToolResult } from "../tools/tool.ts";
import { holderOf } from "./move_agent.ts";
import { removalRefusal } from "./removal_refusal.ts";
import { liveWorktree } from "./worktree_catalog.ts";
import type { WorktreeGit } from "./worktree_git.ts";
import { worktreeNameProblem } from "./worktree_name.ts";
import { hookRanEvents, type WorktreeHookRunner } from "./worktree_hooks.ts";
import { join } from "../../events/posix_path.ts";

/** Input of remove_worktree. */
export interface RemoveWorktreeInput {
  name: string;
  /** Remove it even with uncommitted changes or unmerged commits, throwing them away. */
  discard_changes?: boolean;
}

/** The only description of remove_worktree's input: a JSON Schema. */
export const REMOVE_WORKTREE_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    name: { type: "string", description: "The worktree's name" },
    discard_changes: {
      type: "boolean",
      description: "Remove it even though it has uncommitted changes or commits not merged " +
        "into its base, throwing them away",
    },
  },
  required: ["name"],
  additionalProperties: false,
};

const description =
  `Removes a git worktree made by create_worktree, with its branch. Refused, listing them, while the worktree has uncommitted changes or commits not merged into its base, unless discard_changes is true (which throws them away: merge what is to be kept first).`;

/**
 * Removes worktree `name` with git, unless it holds changes and `discard` is false: the
 * `worktree.removed` that records it, or why not (the refusal lists the changes). Live only.
 */
export async function dropWorktree(
  git: WorktreeGit,
  state: State,
  name: string,
  discard: boolean,
): Promise<{ removed: WorktreeRemoved } | { why: string }> {
  const bad = worktreeNameProblem(name);
  if (bad !== undefined) return { why: bad };
  const entry = liveWorktree(state, name);
  if (entry === undefined) return { why: `No worktree named "${name}"` };
  const changes = await git.changes(entry.path, entry.branch, entry.base, entry.baseCommit);
  if (!changes.ok && !discard) {
    return {
      why: `Cannot tell whether worktree "${name}" has changes (${changes.why}): call again ` +
        "with discard_changes: true to remove it anyway",
    };
  }
  const found = changes.ok ? changes.value : { files: [], commits: [] };
  if (!discard) {
    const refusal = removalRefusal(name, entry.base, found);
    if (refusal !== undefined) return { why: refusal };
  }
  const gone = await git.remove(entry.path, entry.branch);
  if (!gone.ok) return { why: `Cannot remove worktree "${name}": ${gone.why}` };
  return {
    removed: {
      name,
      ...(found.files.length === 0 ? {} : { discardedFiles: found.files }),
      ...(found.commits.length === 0 ? {} : { discardedCommits: found.commits }),
    },
  };
}

/** The model's result for a removed worktree. Pure. */
export function removedText(removed: WorktreeRemoved): string {
  const thrown = [
    removed.discardedFiles && `${removed.discardedFiles.length} changed files`,
    removed.discardedCommits && `${removed.discardedCommits.length} unmerged commits`,
  ].filter((part) => part !== undefined);
  return `Removed worktree "${removed.name}" and its branch` +
    (thrown.length === 0 ? "" : ` (discarded ${thrown.join(" and ")})`);
}

/**
 * `remove_worktree` (Claude Code's `ExitWorktree` with `action: "remove"`): `git worktree remove`
 * and `git branch -D`, refused while another agent works in it, and while it has uncommitted
 * changes or unmerged commits unless `discard_changes`. An effect: git runs live and replay serves its result.
 */
export function createRemoveWorktreeTool(
  git: WorktreeGit,
  hooks?: WorktreeHookRunner,
): Tool<RemoveWorktreeInput> {
  return {
    name: "remove_worktree",
    // The tool of Claude Code's name (no fixed fields), so an `ExitWorktree` rule is for it and
    // covers keep_worktree (`action: "keep"`) too.
    claudeNames: ["ExitWorktree"],
    specifierFields: ["name"],
    description,
    inputSchema: REMOVE_WORKTREE_INPUT_SCHEMA,
    kind: "effect",
    readOnly: false,
    // It may throw work away: it asks unless a rule allows it.
    permission: "other",
    summarize: (input) => input.name,
    async run(input, context): Promise<ToolResult> {
      // Another agent's work, while it works there (a teammate's worktree), is not the caller's
      // to throw away, whatever discard_changes says.
      const holder = holderOf(context.view(), context.session, input.name, context.agent);
      if (holder !== undefined) {
        return {
          content: `Cannot remove worktree "${input.name}": ${holder} works in it`,
          isError: true,
        };
      }
      const dropped = await dropWorktree(
        git,
        context.view(),
        input.name,
        input.discard_changes === true,
      );
      if ("why" in dropped) return { content: dropped.why, isError: true };
      const path = join(git.workspace, `.claude/worktrees/${input.name}`);
      // WorktreeRemove hooks clean up after it; they cannot keep it.
      const ran = await hooks?.(context, { event: "WorktreeRemove", worktreePath: path });
      return {
        content: removedText(dropped.removed),
        events: [
          { type: "worktree.removed", data: dropped.removed },
          ...hookRanEvents(ran?.runs ?? []),
        ],
      };
    },
  };
}
