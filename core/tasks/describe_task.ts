import { openBlockers, type TaskGraph, type TaskNode, type TaskOwner } from "./tasks_projection.ts";

/** Characters of a session id that name it in messages (as `rein sessions` shows it). */
const SESSION_PREFIX = 8;

/**
 * An owner as the agent `viewer` reads it: `you`, `agent "helper" of this session`, or `agent
 * "lead" of session 1a2b3c4d`; without a viewer (`rein tasks`), `lead@1a2b3c4d`. Pure.
 */
export function ownerLabel(owner: TaskOwner, viewer?: TaskOwner): string {
  const session = owner.session.slice(0, SESSION_PREFIX);
  if (viewer === undefined) return `${owner.agent}@${session}`;
  if (owner.session !== viewer.session) return `agent "${owner.agent}" of session ${session}`;
  return owner.agent === viewer.agent ? "you" : `agent "${owner.agent}" of this session`;
}

/** `#3 (in progress, claimed by you)`, `#4 (pending)`: a task as a blocker. Pure. */
export function blockerLabel(task: TaskNode, viewer?: TaskOwner): string {
  const status = task.status.replace("_", " ");
  const owner = task.owner === null || task.status !== "in_progress"
    ? ""
    : `, claimed by ${ownerLabel(task.owner, viewer)}`;
  return `#${task.id} (${status}${owner})`;
}

/**
 * Where a task stands, in a few words: `ready to claim`, `blocked by #2 (pending)`, `claimed by
 * you`, `completed by agent "lead" of session 1a2b3c4d`, `cancelled: not needed`. Pure.
 */
export function taskState(graph: TaskGraph, task: TaskNode, viewer?: TaskOwner): string {
  switch (task.status) {
    case "pending": {
      const open = openBlockers(graph, task);
      return open.length === 0
        ? "ready to claim"
        : `blocked by ${open.map((blocker) => blockerLabel(blocker, viewer)).join(", ")}`;
    }
    case "in_progress":
      return task.owner === null ? "in progress" : `claimed by ${ownerLabel(task.owner, viewer)}`;
    case "completed":
      return task.owner === null ? "completed" : `completed by ${ownerLabel(task.owner, viewer)}`;
    case "cancelled":
      return task.cancelReason === undefined ? "cancelled" : `cancelled: ${task.cancelReason}`;
  }
}

/**
 * `#4 [pending] Ship it — blocked by #2 (pending)`: one line of a task list; a task for a role
 * says so (`— for a reviewer`), one handed back says why (`released: no access`). Pure.
 */
export function taskLine(graph: TaskGraph, task: TaskNode, viewer?: TaskOwner): string {
  const role = task.role === undefined ? "" : `, for a ${task.role}`;
  const released = task.releaseReason === undefined || task.status !== "pending"
    ? ""
    : ` (released: ${task.releaseReason})`;
  return `#${task.id} [${task.status}] ${task.subject} — ${
    taskState(graph, task, viewer)
  }${role}${released}`;
}

/** Task ids as the model reads them: `#3, #4 and #7`. Pure. */
export function idList(ids: readonly number[]): string {
  const named = ids.map((id) => `#${id}`);
  return named.length <= 1
    ? named.join("")
    : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
}

/** The ids a graph holds, for a message about one it does not: `tasks 1–5`, `no tasks`. Pure. */
export function graphRange(graph: TaskGraph): string {
  const n = graph.tasks.length;
  return n === 0 ? "there are no tasks yet" : n === 1 ? "there is task 1" : `tasks are 1–${n}`;
}
