import type { Envelope, EventType } from "../../events/event_types.ts";

/**
 * A per-concern fold of the log, as a mechanism outside the root fold registers it with the
 * harness: its slice lives in `state.extensions[key]`. `evolve` must be pure (no clock, env, disk
 * or network), may mutate and return its slice, and must not throw on a well-formed log.
 *
 * A slice is a record by session id: a session's entry depends only on that session's events
 * (and, for a fork, on its source's entry at the fork). The fold feeds a projection only the
 * events of the sessions in focus, and a session's entry is stored and restored on its own
 * (snapshots, focusing one more session), so an entry must be plain JSON data.
 *
 * A projection declares the event types it folds (`canHandle`, as emmett's projections do): the
 * fold calls `evolve` for those types only, through a table from type to projections made once
 * per list of projections (see `evolve` in state.ts).
 */
export interface Projection<Slice = unknown> {
  /** Where the slice lives in `state.extensions`; unique among registered projections. */
  key: string;
  /**
   * The event types `evolve` folds, a kernel's type (`session.started`, `model.responded`) or a
   * mechanism's: it is never called with another.
   */
  canHandle: readonly EventType[];
  initial(): Slice;
  evolve(slice: Slice, event: Envelope): Slice;
}

/**
 * A mechanism's workspace-wide slice (`Mechanism.catalog`): a fold of every event of the log,
 * whichever session it is of and whichever sessions are in focus, into `state.catalog[key]`
 * (the cron table at `catalog.cron`, the task graph at `catalog.tasks`). The slice is kept across
 * sessions and processes: catalog snapshots store it and a start from one restores it. As a
 * {@link Projection}, `evolve` is pure, never throws on a well-formed log and is called only for
 * the event types it declares (`canHandle`); the slice is one value for the whole workspace (not a
 * record by session), plain JSON data. Its key is not one of the catalog's own fields.
 */
export type CatalogProjection<Slice = unknown> = Projection<Slice>;
