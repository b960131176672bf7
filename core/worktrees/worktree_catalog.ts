import type { Envelope, EventOrigin } from "../../events/event_types.ts";
import { type CatalogProjection, catalogSliceOf } from "../state/catalog.ts";
import type { State } from "../state/state.ts";

/** Where a worktree stands in the log (its files' state is git's: see `worktreeStatus`). */
export type WorktreeState = "active" | "kept" | "removed";

/** One worktree of the workspace, as the log knows it. Plain JSON data. */
export interface WorktreeEntry {
  name: string;
  /** Its folder relative to the workspace. */
  path: string;
  branch: string;
  /** The base as given (`HEAD` unless another was). */
  base: string;
  baseCommit: string;
  /** The task bound to it; null when none. */
  task: number | null;
  state: WorktreeState;
  /** The agent whose call made it. */
  createdBy: EventOrigin;
}

/**
 * The workspace's worktrees by name, in the order they were made (a name made again after its
 * removal moves to the end). Plain JSON data, folded from every event of the log.
 */
export interface WorktreeCatalog {
  byName: Record<string, WorktreeEntry>;
  order: string[];
}

/** The worktrees of a log without any. */
export function emptyWorktrees(): WorktreeCatalog {
  return { byName: {}, order: [] };
}

/**
 * Fold one event into the worktrees: a worktree made over a name that is not removed does not
 * count (git refused it: no second `worktree.created` is recorded for it, but a log may be
 * edited); keeping or removing one that is not there is ignored. Mutates and returns `slice`.
 */
export function evolveWorktrees(slice: WorktreeCatalog, event: Envelope): WorktreeCatalog {
  switch (event.type) {
    case "worktree.created": {
      const { name, path, branch, base, baseCommit, taskId } = event.data;
      const known = slice.byName[name];
      if (known !== undefined && known.state !== "removed") return slice;
      slice.byName[name] = {
        name,
        path,
        branch,
        base,
        baseCommit,
        task: taskId ?? null,
        state: "active",
        createdBy: { session: event.session, agent: event.agent },
      };
      slice.order = [...slice.order.filter((known) => known !== name), name];
      return slice;
    }
    case "worktree.kept": {
      const known = slice.byName[event.data.name];
      if (known?.state === "active") known.state = "kept";
      return slice;
    }
    case "worktree.removed": {
      const known = slice.byName[event.data.name];
      if (known !== undefined && known.state !== "removed") known.state = "removed";
      return slice;
    }
    default:
      return slice;
  }
}

/** The worktrees as the workspace-wide slice `state.catalog.worktrees`. */
export const worktreeCatalogProjection: CatalogProjection<WorktreeCatalog> = {
  key: "worktrees",
  canHandle: ["worktree.created", "worktree.kept", "worktree.removed"],
  initial: emptyWorktrees,
  evolve: evolveWorktrees,
};

/** The workspace's worktrees in a state. Pure. */
export function worktreesOf(state: State): WorktreeCatalog {
  return catalogSliceOf(state.catalog, worktreeCatalogProjection);
}

/** The worktree `name` that is there (active or kept), or undefined. Pure. */
export function liveWorktree(state: State, name: string): WorktreeEntry | undefined {
  const entry = worktreesOf(state).byName[name];
  return entry === undefined || entry.state === "removed" ? undefined : entry;
}

/**
 * The worktree bound to task `id` that is there (the last made, when several were): where an
 * agent that works on the task works. Pure.
 */
export function worktreeOfTask(state: State, id: number): WorktreeEntry | undefined {
  const slice = worktreesOf(state);
  for (let i = slice.order.length - 1; i >= 0; i--) {
    const entry = slice.byName[slice.order[i] as string];
    if (entry !== undefined && entry.task === id && entry.state !== "removed") return entry;
  }
  return undefined;
}
