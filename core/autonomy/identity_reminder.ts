import type { ReinEvent } from "../../events/event_types.ts";
import { escapeBlockTags } from "../mail/block_tags.ts";
import { catalogSliceOf } from "../state/catalog.ts";
import type { State } from "../state/state.ts";
import { taskGraphProjection } from "../tasks/tasks_projection.ts";
import { worktreeOfTask } from "../worktrees/worktree_catalog.ts";
import { AUTONOMY_SOURCE, heldTasks, teammateEntry } from "./idle_claim.ts";

/**
 * Who teammate `name` of `session` is, as put back after its conversation was compacted: its
 * name, role, whom it works for, and the tasks it holds (each with its worktree). Undefined for
 * an agent that is not a teammate. The roster and pending requests are the team mechanism's to
 * put back, not this. Pure.
 */
export function identityText(state: State, session: string, name: string): string | undefined {
  const entry = teammateEntry(state, session, name);
  if (entry === undefined) return undefined;
  const lines = [
    `You are "${name}", a teammate` + (entry.role === null ? "" : ` (role: ${entry.role})`) +
    ` in a team led by "team-lead" (the session's lead; write to it with send_message).`,
  ];
  const graph = catalogSliceOf(state.catalog, taskGraphProjection);
  const held = heldTasks(graph, session, name);
  if (held.length === 0) {
    lines.push("You hold no task now: when idle you claim a ready one from the task graph.");
  }
  for (const task of held) {
    const worktree = worktreeOfTask(state, task.id);
    lines.push(
      `Your current task: #${task.id} ${escapeBlockTags(task.subject)} (in progress, yours)` +
        (worktree === undefined
          ? ""
          : `, in worktree ${worktree.path} (branch ${worktree.branch})`) +
        `. Complete it with complete_task, or hand it back with release_task.`,
    );
  }
  return lines.join("\n");
}

/** The reminder that puts teammate `name`'s identity back after a compaction; none if not one. */
export function identityReminder(state: State, session: string, name: string): ReinEvent[] {
  const text = identityText(state, session, name);
  if (text === undefined) return [];
  return [{
    type: "reminder.added",
    data: { source: AUTONOMY_SOURCE, text: `Who you are, after the compaction:\n${text}` },
  }];
}
