import type { LogReader } from "../events/store.ts";
import { forkSources } from "../core/snapshots/mod.ts";
import type { SessionsRequest } from "../core/state/session_focus.ts";
import { evolveFocused, initialState, type State } from "../core/state/state.ts";

/**
 * The full state of the sessions `request.ids` (and those they were forked from) as of
 * `request.upTo`, folded from `reader`'s log: a PostgreSQL store's, which has no snapshots and no
 * file to index, so each is folded from its first event (as core/snapshots' `loadSessions` does
 * for a session without a snapshot). The result's catalog is empty and its `sessions.order`
 * follows the catalog. Throws what reading the log throws.
 */
export async function loadStoreSessions(
  reader: LogReader,
  request: SessionsRequest,
): Promise<State> {
  const { upTo, projections, catalog } = request;
  const state = initialState(projections);
  const sessions = new Set(forkSources(catalog, request.ids));
  const first = Math.min(...[...sessions].map((id) => catalog.byId[id]?.firstSeq ?? 1));
  if (sessions.size > 0 && first <= upTo) {
    for await (const event of reader.read({ fromSeq: first, toSeq: upTo })) {
      if (sessions.has(event.session)) evolveFocused(state, event, projections);
    }
  }
  state.sessions.order = catalog.order.filter((id) => state.sessions.byId[id] !== undefined);
  state.lastSeq = upTo;
  return state;
}
