import { reinCatalogProjections } from "../core/harness.ts";
import { foldCatalog } from "../core/snapshots/mod.ts";
import { catalogSliceOf } from "../core/state/catalog.ts";
import { renderTaskTree } from "../core/tasks/render_task_tree.ts";
import { taskGraphProjection } from "../core/tasks/tasks_projection.ts";
import { type WorktreeCatalog, worktreeCatalogProjection } from "../core/worktrees/mod.ts";
import type { CommandIo } from "./io.ts";

/**
 * `rein tasks`: the workspace's task graph as a tree (status, owner, what waits for what), or
 * with `json` its tasks as JSON, from the log's catalog (the newest catalog snapshot that holds,
 * and the events after it); `at` folds only up to that seq. A missing log has no tasks. Reads
 * the log, never writes it.
 */
export async function tasksCommand(
  path: string,
  options: { json: boolean; at?: number | undefined },
  io: CommandIo,
): Promise<number> {
  let tasks;
  let worktrees: WorktreeCatalog = { byName: {}, order: [] };
  try {
    const fold = await foldCatalog(path, {
      at: options.at,
      onNotice: (message) => io.stderr.write(`${message}\n`),
      catalogProjections: reinCatalogProjections(),
    });
    tasks = catalogSliceOf(fold.catalog, taskGraphProjection);
    worktrees = catalogSliceOf(fold.catalog, worktreeCatalogProjection);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    io.stdout.write(options.json ? "[]\n" : `No tasks yet (no log at ${path})\n`);
    return 0;
  }
  if (options.json) {
    const bound = tasks.tasks.map((task) => {
      const worktree = boundWorktree(worktrees, task.id);
      return worktree === undefined ? task : { ...task, worktree };
    });
    io.stdout.write(`${JSON.stringify(bound, null, 2)}\n`);
    return 0;
  }
  if (tasks.tasks.length === 0) {
    io.stdout.write(
      `No tasks in ${path}${options.at === undefined ? "" : ` at seq ${options.at}`}\n`,
    );
    return 0;
  }
  io.stdout.write(`${renderTaskTree(tasks).join("\n")}\n`);
  const bound = tasks.tasks.flatMap((task) => {
    const worktree = boundWorktree(worktrees, task.id);
    return worktree === undefined
      ? []
      : [`  #${task.id} → ${worktree.name} (${worktree.branch}, ${worktree.path})`];
  });
  if (bound.length > 0) io.stdout.write(`Worktrees:\n${bound.join("\n")}\n`);
  return 0;
}

/** The worktree bound to task `id` that is there (the last made), as `rein tasks` shows it. */
function boundWorktree(
  worktrees: WorktreeCatalog,
  id: number,
): { name: string; branch: string; path: string } | undefined {
  const name = [...worktrees.order].reverse().find((name) => {
    const entry = worktrees.byName[name];
    return entry?.task === id && entry.state !== "removed";
  });
  const entry = name === undefined ? undefined : worktrees.byName[name];
  return entry && { name: entry.name, branch: entry.branch, path: entry.path };
}
