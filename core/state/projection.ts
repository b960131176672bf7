import type { Envelope } from "../../events/event_types.ts";

/**
 * A per-concern fold of the log, as a mechanism outside the root fold registers it with the
 * harness: its slice lives in `state.extensions[key]`. `evolve` must be pure (no clock, env, disk
 * or network), may mutate and return its slice, and must not throw on a well-formed log.
 */
export interface Projection<Slice = unknown> {
  /** Where the slice lives in `state.extensions`; unique among registered projections. */
  key: string;
  initial(): Slice;
  evolve(slice: Slice, event: Envelope): Slice;
}
