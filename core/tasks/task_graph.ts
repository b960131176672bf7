import {
  dependencyPath,
  openBlockers,
  type TaskGraph,
  type TaskNode,
  taskOf,
} from "./tasks_projection.ts";

/**
 * The tasks that can be claimed now, in id order: pending, unowned, and every task they wait
 * for completed. One pass over the graph (linear in tasks and dependencies). Pure.
 */
export function unblockedTasks(graph: TaskGraph): TaskNode[] {
  const ready: TaskNode[] = [];
  for (const task of graph.tasks) {
    if (task.status !== "pending" || task.owner !== null) continue;
    if (task.blockedBy.every((id) => taskOf(graph, id)?.status === "completed")) ready.push(task);
  }
  return ready;
}

/**
 * The pending tasks that wait for something not yet completed, in id order, each with what it
 * waits for. Pure.
 */
export function blockedTasks(graph: TaskGraph): { task: TaskNode; waitsFor: TaskNode[] }[] {
  const blocked: { task: TaskNode; waitsFor: TaskNode[] }[] = [];
  for (const task of graph.tasks) {
    if (task.status !== "pending") continue;
    const waitsFor = openBlockers(graph, task);
    if (waitsFor.length > 0) blocked.push({ task, waitsFor });
  }
  return blocked;
}

/**
 * The cycle that making task `id` wait for task `blocker` would close, as the ids around it
 * (`[id, blocker, …, id]`: each waits for the next), or undefined when there would be none
 * (`blocker` does not wait for `id`, directly or through others). A task waiting for itself is
 * the cycle `[id, id]`. Pure.
 */
export function cycleThrough(graph: TaskGraph, id: number, blocker: number): number[] | undefined {
  const path = dependencyPath(graph, blocker, id);
  return path === undefined ? undefined : [id, ...path];
}

/**
 * The tasks that completing task `id` would make claimable, in id order: pending, unowned tasks
 * that wait for it and for nothing else still open. Pure.
 */
export function unblockedBy(graph: TaskGraph, id: number): TaskNode[] {
  const task = taskOf(graph, id);
  if (task === undefined) return [];
  return task.blocks.flatMap((dependentId) => {
    const dependent = taskOf(graph, dependentId);
    if (dependent?.status !== "pending" || dependent.owner !== null) return [];
    const open = openBlockers(graph, dependent);
    return open.every((blocker) => blocker.id === id) ? [dependent] : [];
  }).sort((a, b) => a.id - b.id);
}
