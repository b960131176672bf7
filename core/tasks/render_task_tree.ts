import { taskState } from "./describe_task.ts";
import { unblockedTasks } from "./task_graph.ts";
import { type TaskGraph, type TaskNode, taskOf, type TaskStatus } from "./tasks_projection.ts";

const GLYPH: Record<TaskStatus, string> = {
  pending: "☐",
  in_progress: "◐",
  completed: "☒",
  cancelled: "⊘",
};

/** Levels of indentation drawn; deeper tasks are drawn at this level, naming their parent. */
const MAX_DEPTH = 12;

/**
 * The task graph as a tree of lines (`rein tasks`, `rein state`): a count by status, then every
 * task once, with its status, owner and what it waits for, under the first task it waits for
 * (tasks that wait for nothing at the top), in number order; under its other blockers it shows
 * as a one-line reference. Owners read `lead@1a2b3c4d` (agent @ session). No colours. Pure;
 * linear in the graph's size (deep chains are drawn no deeper than a few levels).
 */
export function renderTaskTree(graph: TaskGraph): string[] {
  if (graph.tasks.length === 0) return ["No tasks"];
  const lines = [summaryLine(graph)];
  /** Whether each task was drawn in full (at its first blocker). */
  const placed = new Set<number>();
  const stack: { id: number; prefix: string; last: boolean; depth: number; parent?: number }[] = [];
  const roots = graph.tasks.filter((task) => task.blockedBy.length === 0);
  for (let i = roots.length - 1; i >= 0; i--) {
    stack.push({ id: roots[i]!.id, prefix: "", last: true, depth: 0 });
  }
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const task = taskOf(graph, item.id) as TaskNode;
    const branch = item.depth === 0 ? "" : item.last ? "└─ " : "├─ ";
    const first = task.blockedBy[0] === item.parent || item.parent === undefined;
    if (!first || placed.has(task.id)) {
      lines.push(
        `${item.prefix}${branch}#${task.id} ${task.subject} (under #${task.blockedBy[0]})`,
      );
      continue;
    }
    placed.add(task.id);
    const deep = item.depth > MAX_DEPTH ? ` (after #${item.parent})` : "";
    lines.push(`${item.prefix}${branch}${nodeText(graph, task)}${deep}`);
    const childPrefix = item.depth === 0 || item.depth > MAX_DEPTH
      ? item.prefix
      : item.prefix + (item.last ? "   " : "│  ");
    const children = task.blocks.filter((id) => taskOf(graph, id) !== undefined)
      .sort((a, b) => a - b);
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({
        id: children[i]!,
        prefix: childPrefix,
        last: i === children.length - 1,
        depth: item.depth + 1,
        parent: task.id,
      });
    }
  }
  // Tasks on no path from a task that waits for nothing: only a cycle, which the fold never makes.
  for (const task of graph.tasks) {
    if (!placed.has(task.id)) {
      placed.add(task.id);
      lines.push(nodeText(graph, task));
    }
  }
  return lines;
}

function nodeText(graph: TaskGraph, task: TaskNode): string {
  return `${GLYPH[task.status]} #${task.id} ${task.subject} — ${taskState(graph, task)}`;
}

function summaryLine(graph: TaskGraph): string {
  const count = (status: TaskStatus) => graph.tasks.filter((t) => t.status === status).length;
  const ready = unblockedTasks(graph).length;
  const parts = [
    `${count("completed")} completed`,
    `${count("in_progress")} in progress`,
    `${count("pending")} pending (${ready} ready)`,
    ...(count("cancelled") > 0 ? [`${count("cancelled")} cancelled`] : []),
  ];
  const n = graph.tasks.length;
  return `${n} task${n === 1 ? "" : "s"}: ${parts.join(", ")}`;
}
