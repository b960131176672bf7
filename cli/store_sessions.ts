import type { LogReader } from "../events/store.ts";
import { forkSources, sessionSnapshot, type SnapshotPlace } from "../core/snapshots/mod.ts";
import type { SessionsRequest } from "../core/state/session_focus.ts";
import { evolveFocused, initialState, type State } from "../core/state/state.ts";

/**
 * The full state of the sessions `request.ids` (and those they were forked from) as of
 * `request.upTo`, folded from `reader`'s log: a PostgreSQL store's, which has no file to index.
 * Each session starts from its snapshot in `snapshots` (the log's snapshot table) when one holds
 * there, as core/snapshots' `loadSessions` starts from a snapshot file; one without is folded from
 * its first event, with the sessions it was forked from. The result's catalog is empty and its
 * `sessions.order` follows the catalog. Throws what reading the log throws.
 */
export async function loadStoreSessions(
  reader: LogReader,
  request: SessionsRequest,
  snapshots?: SnapshotPlace,
): Promise<State> {
  const { upTo, projections, catalog } = request;
  const state = initialState(projections);
  /** Per session: fold its events after this seq. */
  const after = new Map<string, number>();
  const fromStart: string[] = [];
  for (const id of request.ids) {
    const snapshot = snapshots === undefined
      ? undefined
      : await sessionSnapshot(snapshots, id, projections, upTo);
    if (snapshot === undefined) {
      fromStart.push(id);
      continue;
    }
    state.sessions.byId[id] = snapshot.view;
    for (const [key, entry] of Object.entries(snapshot.entries)) {
      const slice = state.extensions[key] as Record<string, unknown> | undefined;
      if (slice !== undefined) slice[id] = entry;
    }
    after.set(id, snapshot.point.seq);
  }
  for (const id of forkSources(catalog, fromStart)) if (!after.has(id)) after.set(id, 0);
  const first = Math.min(
    ...[...after].map(([id, seq]) => Math.max(seq + 1, catalog.byId[id]?.firstSeq ?? 1)),
  );
  if (after.size > 0 && first <= upTo) {
    for await (const event of reader.read({ fromSeq: first, toSeq: upTo })) {
      if (event.seq > (after.get(event.session) ?? Infinity)) {
        evolveFocused(state, event, projections);
      }
    }
  }
  state.sessions.order = catalog.order.filter((id) => state.sessions.byId[id] !== undefined);
  state.lastSeq = upTo;
  return state;
}

/**
 * The snapshots this machine (`machine`, its key's id) keeps of the PostgreSQL log at `store`, as
 * core/snapshots reads and writes them, on a connection of their own; `close` ends it. Named
 * by the store's URL without its password in reports. Throws what connecting throws.
 */
export async function openStoreSnapshots(
  store: string,
  machine: string,
): Promise<{ place: SnapshotPlace; close(): Promise<void> }> {
  const { openSnapshotTable } = await import("../events/postgres/snapshot_table.ts");
  const { parsePostgresUrl } = await import("../events/postgres/store_url.ts");
  const { rowSnapshots } = await import("../core/snapshots/snapshot_place.ts");
  const table = await openSnapshotTable(store, machine);
  const label = `${parsePostgresUrl(store).display} snapshots`;
  return { place: rowSnapshots(table, label), close: () => table.close() };
}
