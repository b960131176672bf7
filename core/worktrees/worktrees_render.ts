import type { Envelope } from "../../events/event_types.ts";
import type { ReportContext } from "../mechanism.ts";
import { type RenderedLine, renderedLine, type ReportSection } from "../state/rendered_line.ts";
import type { State } from "../state/state.ts";
import { worktreesOf } from "./worktree_catalog.ts";

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
    default:
      return undefined;
  }
}

/** What `rein state` shows of the worktrees a session made. Pure. */
export function reportWorktrees(state: State, context: ReportContext): ReportSection[] {
  const slice = worktreesOf(state);
  const lines = slice.order.flatMap((name) => {
    const entry = slice.byName[name];
    if (entry === undefined || entry.createdBy.session !== context.session) return [];
    const task = entry.task === null ? "" : `, task #${entry.task}`;
    return [renderedLine(`${name}: ${entry.state}, ${entry.branch} at ${entry.path}${task}`)];
  });
  return lines.length === 0 ? [] : [{ title: "worktrees", lines }];
}
