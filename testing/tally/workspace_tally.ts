import type { Envelope } from "../../events/event_types.ts";
import { type CatalogProjection, catalogSliceOf } from "../../core/state/catalog.ts";
import type { State } from "../../core/state/state.ts";
import "./tally_extension.ts";

/** What every session of the workspace added together, and how many additions that took. */
export interface WorkspaceTally {
  total: number;
  additions: number;
}

/**
 * The workspace's tally: a workspace-wide slice (`Mechanism.catalog`), folded from every
 * session's events into `state.catalog.tally`.
 */
export const workspaceTallyProjection: CatalogProjection<WorkspaceTally> = {
  key: "tally",
  canHandle: ["tally.added"],
  initial: () => ({ total: 0, additions: 0 }),
  evolve(slice, event: Envelope) {
    if (event.type === "tally.added") {
      slice.total += event.data.by;
      slice.additions += 1;
    }
    return slice;
  },
};

/** The workspace's tally now (every session's). Pure. */
export function workspaceTallyOf(state: State): WorkspaceTally {
  return catalogSliceOf(state.catalog, workspaceTallyProjection);
}
