import type { Envelope, EventOrigin, TaskUpdated } from "../../events/event_types.ts";
import type { CatalogProjection } from "../state/projection.ts";

/** Where a task stands. A pending task may still be blocked (see {@link openBlockers}). */
export type TaskStatus = "pending" | "in_progress" | "completed" | "cancelled";

/** Who owns or created a task: an agent of a session (agent names are unique per session). */
export type TaskOwner = EventOrigin;

/** One task of the graph. Plain JSON data. */
export interface TaskNode {
  id: number;
  subject: string;
  description: string;
  status: TaskStatus;
  /** The agent that claimed it; null until it is claimed. */
  owner: TaskOwner | null;
  /** Tasks it waits for, in the order given; it can be claimed once all are completed. */
  blockedBy: number[];
  /** Tasks that wait for it (the inverse of `blockedBy`), in the order they came to. */
  blocks: number[];
  createdBy: TaskOwner;
  /** Why it was cancelled, when it was and a reason was given. */
  cancelReason?: string;
  /** The role of the teammate meant to do it, when one was named (see `TaskCreated.role`). */
  role?: string;
  /** Why its last owner handed it back, when one did (`task.released`). */
  releaseReason?: string;
}

/**
 * The workspace's task graph: every task of the log, task n at index n - 1 (the n-th task
 * created is task n). Plain JSON data, folded for every event of the log (it lives in the
 * catalog), so every session and process of the workspace sees the same graph.
 */
export interface TaskGraph {
  tasks: TaskNode[];
}

/** The graph of a log without tasks. */
export function emptyTaskGraph(): TaskGraph {
  return { tasks: [] };
}

/** Task `id` of the graph, or undefined. Pure. */
export function taskOf(graph: TaskGraph, id: number): TaskNode | undefined {
  return Number.isInteger(id) && id >= 1 ? graph.tasks[id - 1] : undefined;
}

/** Whether two owners are the same agent of the same session. Pure. */
export function sameOwner(a: TaskOwner | null, b: TaskOwner): boolean {
  return a !== null && a.session === b.session && a.agent === b.agent;
}

/** The tasks `task` waits for that are not completed (cancelled ones keep blocking). Pure. */
export function openBlockers(graph: TaskGraph, task: TaskNode): TaskNode[] {
  const open: TaskNode[] = [];
  for (const id of task.blockedBy) {
    const blocker = taskOf(graph, id);
    if (blocker !== undefined && blocker.status !== "completed") open.push(blocker);
  }
  return open;
}

/** Whether `task` can be claimed now: pending, unowned, and nothing it waits for is open. Pure. */
export function isClaimable(graph: TaskGraph, task: TaskNode): boolean {
  return task.status === "pending" && task.owner === null && openBlockers(graph, task).length === 0;
}

/**
 * A chain of `blockedBy` edges from task `from` to task `to` (`[from, …, to]`), or undefined
 * when `from` does not wait for `to`, directly or through others. Making `to` wait for `from`
 * would close a cycle exactly when there is one. Depth-first, each task visited once: linear in
 * the graph's open part when `to` is pending, in its size otherwise. Pure.
 */
export function dependencyPath(graph: TaskGraph, from: number, to: number): number[] | undefined {
  // A task in progress or completed waits only for completed tasks, which wait only for completed
  // ones: no chain to a pending task passes one, so the search stays in the open part of the graph.
  const open = taskOf(graph, to)?.status === "pending";
  const passable = (id: number) => {
    const status = taskOf(graph, id)?.status;
    return !open || (status !== "completed" && status !== "in_progress");
  };
  if (from !== to && !passable(from)) return undefined;
  const cameFrom = new Map<number, number>([[from, from]]);
  const stack = [from];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (id === to) {
      const path = [to];
      for (let at = to; at !== from; path.push(at)) at = cameFrom.get(at) as number;
      return path.reverse();
    }
    // Pushed last to first, so the first task a task waits for is followed first.
    const next = taskOf(graph, id)?.blockedBy ?? [];
    for (let i = next.length - 1; i >= 0; i--) {
      const dep = next[i] as number;
      if (cameFrom.has(dep) || !passable(dep)) continue;
      cameFrom.set(dep, id);
      stack.push(dep);
    }
  }
  return undefined;
}

/**
 * Whether `update` can be applied to the graph as it is: its task exists; dependency changes
 * only while the task is pending, naming existing tasks other than itself (removals: tasks it
 * waits for), each added one neither waited for already nor waiting for the task (no cycle).
 * The fold ignores an update that cannot be applied; the tool refuses it first. Pure.
 */
export function canUpdate(graph: TaskGraph, update: TaskUpdated): boolean {
  const task = taskOf(graph, update.id);
  if (task === undefined) return false;
  const added = update.addBlockedBy ?? [];
  const removed = update.removeBlockedBy ?? [];
  if (added.length === 0 && removed.length === 0) return true;
  if (task.status !== "pending") return false;
  if (removed.some((id) => !task.blockedBy.includes(id))) return false;
  const kept = task.blockedBy.filter((id) => !removed.includes(id));
  return added.every((id, i) =>
    taskOf(graph, id) !== undefined && !kept.includes(id) && added.indexOf(id) === i &&
    dependencyPath(graph, id, task.id) === undefined
  );
}

/**
 * Fold one event of the log into the task graph. Task events are applied when valid at their
 * place in the log and ignored otherwise, so races between processes are decided by log order:
 * a task created under an id already taken does not count, only the first valid claim of a task
 * makes its owner, and only the owner completes it or releases it (pending and unowned again). Every other event is passed over at once.
 * Mutates and returns `graph`; pure otherwise, never throws on a well-formed log.
 */
export function evolveTaskGraph(graph: TaskGraph, event: Envelope): TaskGraph {
  switch (event.type) {
    case "task.created": {
      const { id, subject, description, blockedBy, role } = event.data;
      if (id !== graph.tasks.length + 1) return graph;
      const deps = blockedBy.filter((dep, i) =>
        taskOf(graph, dep) !== undefined && blockedBy.indexOf(dep) === i
      );
      graph.tasks.push({
        id,
        subject,
        description,
        status: "pending",
        owner: null,
        blockedBy: deps,
        blocks: [],
        createdBy: origin(event),
        ...(role === undefined ? {} : { role }),
      });
      for (const dep of deps) taskOf(graph, dep)?.blocks.push(id);
      return graph;
    }
    case "task.claimed": {
      const task = taskOf(graph, event.data.id);
      if (task === undefined || !isClaimable(graph, task)) return graph;
      task.status = "in_progress";
      task.owner = origin(event);
      return graph;
    }
    case "task.completed": {
      const task = taskOf(graph, event.data.id);
      if (task?.status !== "in_progress" || !sameOwner(task.owner, event)) return graph;
      task.status = "completed";
      return graph;
    }
    case "task.released": {
      const task = taskOf(graph, event.data.id);
      if (task?.status !== "in_progress" || !sameOwner(task.owner, event)) return graph;
      task.status = "pending";
      task.owner = null;
      task.releaseReason = event.data.reason;
      return graph;
    }
    case "task.updated":
      if (canUpdate(graph, event.data)) applyUpdate(graph, event.data);
      return graph;
    case "task.cancelled": {
      const task = taskOf(graph, event.data.id);
      if (task === undefined || task.status === "completed" || task.status === "cancelled") {
        return graph;
      }
      task.status = "cancelled";
      if (event.data.reason !== undefined) task.cancelReason = event.data.reason;
      return graph;
    }
    default:
      return graph;
  }
}

function applyUpdate(graph: TaskGraph, update: TaskUpdated): void {
  const task = taskOf(graph, update.id) as TaskNode;
  if (update.subject !== undefined) task.subject = update.subject;
  if (update.description !== undefined) task.description = update.description;
  for (const id of update.removeBlockedBy ?? []) {
    task.blockedBy = task.blockedBy.filter((dep) => dep !== id);
    const blocker = taskOf(graph, id);
    if (blocker) blocker.blocks = blocker.blocks.filter((dependent) => dependent !== task.id);
  }
  for (const id of update.addBlockedBy ?? []) {
    task.blockedBy.push(id);
    taskOf(graph, id)?.blocks.push(task.id);
  }
}

function origin(event: EventOrigin): TaskOwner {
  return { session: event.session, agent: event.agent };
}

/**
 * The task graph as the tasks mechanism's workspace-wide slice (`state.catalog.tasks`):
 * folded from every event of the log and kept in catalog snapshots.
 */
export const taskGraphProjection: CatalogProjection<TaskGraph> = {
  key: "tasks",
  canHandle: [
    "task.created",
    "task.claimed",
    "task.completed",
    "task.updated",
    "task.cancelled",
    "task.released",
  ],
  initial: emptyTaskGraph,
  evolve: evolveTaskGraph,
};
