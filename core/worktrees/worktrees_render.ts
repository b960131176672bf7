import type { Envelope } from "../../events/event_types.ts";
import { type RenderedLine, renderedLine } from "../state/rendered_line.ts";
import type { WorktreeCatalog } from "./worktree_catalog.ts";

/**
 * The line the REPL and `-p`'s progress show for a worktree event; undefined for another
 * mechanism's. Pure.
 */
export function renderWorktreeEvent(event: Envelope): readonly RenderedLine[] | undefined {
  switch (event.type) {
    case "worktree.created": {
      const { name, branch, base, taskId } = event.data;
      const task = taskId === undefined ? "" : ` for task #${taskId}`;
      return [renderedLine(`⎇ worktree ${name} on ${branch} from ${base}${task}`, "cyan")];
    }
    case "worktree.kept":
      return [renderedLine(`⎇ worktree ${event.data.name} kept`, "dim")];
    case "worktree.removed": {
      const { name, discardedFiles, discardedCommits } = event.data;
      const thrown = (discardedFiles?.length ?? 0) + (discardedCommits?.length ?? 0);
      return [
        renderedLine(
          `⎇ worktree ${name} removed${thrown === 0 ? "" : ` (${thrown} changes discarded)`}`,
          thrown === 0 ? "dim" : "yellow",
        ),
      ];
    }
    case "agent.moved": {
      const { cwd, worktree } = event.data;
      const where = worktree !== undefined
        ? `into worktree ${worktree}`
        : cwd === ""
        ? "back to the workspace"
        : `to ${cwd}`;
      return [renderedLine(`⎇ ${event.agent} moved ${where}`, "dim")];
    }
    default:
      return undefined;
  }
}

/**
 * The workspace's worktrees as `rein state` lists them, one line each (name, state, branch,
 * folder, task), removed ones included. Pure.
 */
export function worktreeLines(slice: WorktreeCatalog): string[] {
  return slice.order.flatMap((name) => {
    const entry = slice.byName[name];
    if (entry === undefined) return [];
    const task = entry.task === null ? "" : `, task #${entry.task}`;
    return [`${name}: ${entry.state}, ${entry.branch} at ${entry.path}${task}`];
  });
}
