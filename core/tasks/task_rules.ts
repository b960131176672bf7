import type { TaskUpdated } from "../../events/event_types.ts";
import { blockerLabel, graphRange, idList, ownerLabel } from "./describe_task.ts";
import { cycleThrough } from "./task_graph.ts";
import {
  openBlockers,
  sameOwner,
  type TaskGraph,
  type TaskNode,
  taskOf,
  type TaskOwner,
} from "./tasks_projection.ts";

/**
 * The task graph's rules, each as the reason a command is refused (worded for the model, saying
 * exactly why), or undefined when the command is valid on `graph`. They agree with the fold: a
 * command refused here is one whose event the fold would ignore, and one accepted is applied
 * (a property test holds them together). Pure.
 *
 * @module
 */

/** Why a task with these dependencies cannot be created, if so. */
export function createRefusal(
  graph: TaskGraph,
  input: { subject: string; blockedBy: readonly number[] },
): string | undefined {
  if (input.subject.trim() === "") return "Cannot create the task: its subject is empty";
  const unknown = input.blockedBy.filter((id) => taskOf(graph, id) === undefined);
  if (unknown.length > 0) {
    return `Cannot create the task: blockedBy names ${idList(unknown)}, which ` +
      `${unknown.length === 1 ? "does" : "do"} not exist (${graphRange(graph)})`;
  }
  const cancelled = input.blockedBy.filter((id) => taskOf(graph, id)?.status === "cancelled");
  if (cancelled.length > 0) {
    return `Cannot create the task: blockedBy names ${idList(cancelled)}, which ` +
      `${cancelled.length === 1 ? "was" : "were"} cancelled and will never be completed`;
  }
  return undefined;
}

/** Why `who` cannot claim task `id`, if so. */
export function claimRefusal(graph: TaskGraph, id: number, who: TaskOwner): string | undefined {
  const task = taskOf(graph, id);
  const cannot = `Cannot claim task ${id}`;
  if (task === undefined) return `${cannot}: it does not exist (${graphRange(graph)})`;
  switch (task.status) {
    case "completed":
      return `${cannot}: it is already completed`;
    case "cancelled":
      return `${cannot}: it was cancelled${cancelReason(task)}`;
    case "in_progress": {
      if (task.owner === null) return `${cannot}: it is already in progress`;
      return sameOwner(task.owner, who)
        ? `${cannot}: you already own it (you claimed it before); complete it when it is done`
        : `${cannot}: it is already claimed by ${ownerLabel(task.owner, who)}`;
    }
    case "pending": {
      const open = openBlockers(graph, task);
      if (open.length === 0) return undefined;
      const labels = open.map((blocker) => blockerLabel(blocker, who)).join(", ");
      return `${cannot}: it is blocked by ${labels}; it can be claimed once ` +
        `${open.length === 1 ? "that task is" : "those are"} completed`;
    }
  }
}

/** Why `who` cannot complete task `id`, if so. */
export function completeRefusal(graph: TaskGraph, id: number, who: TaskOwner): string | undefined {
  return ownerOnlyRefusal(
    graph,
    id,
    who,
    "complete",
    "nobody has claimed it; claim it with claim_task first, then complete it",
  );
}

/** Why `who` cannot hand task `id` back (release it), if so. */
export function releaseRefusal(graph: TaskGraph, id: number, who: TaskOwner): string | undefined {
  return ownerOnlyRefusal(graph, id, who, "release", "nobody has claimed it");
}

/**
 * Why `who` cannot `verb` task `id`, which only the owner of a task in progress may do; `pending`
 * says why an unclaimed one cannot be.
 */
function ownerOnlyRefusal(
  graph: TaskGraph,
  id: number,
  who: TaskOwner,
  verb: string,
  pending: string,
): string | undefined {
  const task = taskOf(graph, id);
  const cannot = `Cannot ${verb} task ${id}`;
  if (task === undefined) return `${cannot}: it does not exist (${graphRange(graph)})`;
  switch (task.status) {
    case "completed":
      return `${cannot}: it is already completed`;
    case "cancelled":
      return `${cannot}: it was cancelled${cancelReason(task)}`;
    case "pending":
      return `${cannot}: ${pending}`;
    case "in_progress":
      if (task.owner !== null && sameOwner(task.owner, who)) return undefined;
      return `${cannot}: it is owned by ${
        task.owner === null ? "nobody" : ownerLabel(task.owner, who)
      }, and only its owner can ${verb} it`;
  }
}

/** Why task `id` cannot be cancelled, if so. */
export function cancelRefusal(graph: TaskGraph, id: number): string | undefined {
  const task = taskOf(graph, id);
  const cannot = `Cannot cancel task ${id}`;
  if (task === undefined) return `${cannot}: it does not exist (${graphRange(graph)})`;
  if (task.status === "completed") return `${cannot}: it is already completed`;
  if (task.status === "cancelled") return `${cannot}: it is already cancelled`;
  return undefined;
}

/**
 * Why `update` cannot be applied, if so: an unknown task; dependencies changed on a task that is
 * no longer pending; an added dependency that does not exist, is the task itself, is already
 * there (or given twice), or waits for the task (a cycle, named); a removed one it does not have.
 */
export function updateRefusal(graph: TaskGraph, update: TaskUpdated): string | undefined {
  const task = taskOf(graph, update.id);
  const cannot = `Cannot update task ${update.id}`;
  if (task === undefined) return `${cannot}: it does not exist (${graphRange(graph)})`;
  const added = update.addBlockedBy ?? [];
  const removed = update.removeBlockedBy ?? [];
  if (added.length === 0 && removed.length === 0) return undefined;
  if (task.status !== "pending") {
    return `${cannot}: it is ${task.status.replace("_", " ")}, and its dependencies can only ` +
      "change while it is pending";
  }
  const notThere = removed.filter((id) => !task.blockedBy.includes(id));
  if (notThere.length > 0) {
    return `${cannot}: it does not wait for ${idList(notThere)}` +
      (task.blockedBy.length === 0
        ? " (it waits for nothing)"
        : ` (it waits for ${idList(task.blockedBy)})`);
  }
  const kept = task.blockedBy.filter((id) => !removed.includes(id));
  for (const [i, id] of added.entries()) {
    if (taskOf(graph, id) === undefined) {
      return `${cannot}: addBlockedBy names #${id}, which does not exist (${graphRange(graph)})`;
    }
    if (id === task.id) return `${cannot}: a task cannot wait for itself`;
    if (kept.includes(id) || added.indexOf(id) !== i) {
      return `${cannot}: it already waits for #${id}`;
    }
    const cycle = cycleThrough(graph, task.id, id);
    if (cycle !== undefined) {
      return `${cannot}: waiting for #${id} would make a cycle, since #${id} already waits ` +
        `for #${task.id} (${cycle.map((n) => `#${n}`).join(" waits for ")})`;
    }
  }
  return undefined;
}

function cancelReason(task: TaskNode): string {
  return task.cancelReason === undefined ? "" : ` (${task.cancelReason})`;
}
