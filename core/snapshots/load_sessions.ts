import { readLog } from "../../events/read_log.ts";
import type { Catalog, CatalogProjection } from "../state/catalog.ts";
import type { Projection } from "../state/projection.ts";
import { evolve, evolveFocused, initialState, type State } from "../state/state.ts";
import type { LogIndex } from "./catalog_snapshot.ts";
import { foldCatalog } from "./fold_catalog.ts";
import { indexPoint } from "./log_point.ts";
import { folding } from "./_folding.ts";
import { sessionSnapshot } from "./session_snapshot.ts";

/** Sessions up to which a read skips the lines of other sessions undecoded. */
const FILTERED_SESSIONS = 8;

/** Which sessions to load, as of which event, and what the log's catalog says of them. */
export interface LoadRequest {
  ids: readonly string[];
  /** The seq to fold up to (included). */
  upTo: number;
  projections: readonly Projection[];
  /** The catalog as of `upTo` or later: where sessions start, what they were forked from. */
  catalog: Catalog;
  /** Places to start reading from (a catalog snapshot's), to skip what precedes a session. */
  index?: LogIndex;
}

/**
 * The full state (views and mechanism slices) of the sessions `ids` of the log at `logPath` as
 * of event `upTo`: each from its snapshot when one holds, plus the events after it; a session
 * without one from its start, with the sessions it was forked from (a fork's mechanism slices
 * start from its source's). Lines of other sessions are skipped undecoded. The result's catalog
 * is empty and its `sessions.order` follows the catalog. Throws what reading the log throws.
 */
export async function loadSessions(logPath: string, request: LoadRequest): Promise<State> {
  const { upTo, projections, catalog } = request;
  const state = initialState(projections);
  /** Per session: fold its events after this seq. */
  const after = new Map<string, number>();
  let start: { seq: number; offset: number } | undefined;
  const fromStart: string[] = [...request.ids];
  for (const id of request.ids) {
    const snapshot = await sessionSnapshot(logPath, id, projections, upTo);
    if (snapshot === undefined) continue;
    fromStart.splice(fromStart.indexOf(id), 1);
    state.sessions.byId[id] = snapshot.view;
    for (const [key, entry] of Object.entries(snapshot.entries)) {
      const slice = state.extensions[key] as Record<string, unknown> | undefined;
      if (slice !== undefined) slice[id] = entry;
    }
    after.set(id, snapshot.point.seq);
    if (start === undefined || snapshot.point.seq < start.seq) start = snapshot.point;
  }
  const sources = forkSources(catalog, fromStart);
  for (const id of sources) if (!after.has(id)) after.set(id, 0);
  if (fromStart.length > 0) {
    const first = Math.min(...sources.map((id) => catalog.byId[id]?.firstSeq ?? 1));
    const near = await indexPoint(logPath, request.index ?? [], first - 1);
    if (start === undefined || (near?.seq ?? 0) < start.seq) start = near;
  }
  const sessions = [...after.keys()];
  // Nothing of these sessions follows their last event, as the catalog knows it.
  const last = Math.min(upTo, Math.max(...sessions.map((id) => catalog.byId[id]?.lastSeq ?? upTo)));
  if (sessions.some((id) => last > (after.get(id) ?? 0)) && last > (start?.seq ?? 0)) {
    // Each line is searched for every id: past a few ids, decoding every line costs less.
    const options = {
      upTo: last,
      ...(sessions.length <= FILTERED_SESSIONS ? { sessions } : {}),
      ...(start ? { start } : {}),
    };
    for await (const event of readLog(logPath, options)) {
      if (event.seq > (after.get(event.session) ?? Infinity)) {
        folding(logPath, event, () => evolveFocused(state, event, projections));
      }
    }
  }
  state.sessions.order = catalog.order.filter((id) => state.sessions.byId[id] !== undefined);
  state.lastSeq = upTo;
  return state;
}

/** `ids` and every session they were forked from, transitively, by the catalog. Pure. */
export function forkSources(catalog: Catalog, ids: readonly string[]): string[] {
  const found = new Set<string>();
  const queue = [...ids];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    if (found.has(id)) continue;
    found.add(id);
    const source = catalog.byId[id]?.forkedFrom?.session;
    if (source !== undefined) queue.push(source);
  }
  return [...found];
}

/** What to fold with {@link foldSessions}. */
export interface FoldOptions {
  /** Sessions to fold in full (ids as in the log): every one, or those named (none: catalog). */
  focus: "all" | readonly string[];
  /** Fold up to this seq (included); the whole log when omitted. */
  at?: number;
  projections?: readonly Projection[];
  /** The workspace-wide slices the catalog holds (rein's: `reinCatalogProjections`). */
  catalogProjections?: readonly CatalogProjection[];
  onNotice?: (message: string) => void;
}

/**
 * The state of the log at `logPath` (up to `at`): its catalog, from the newest snapshot that
 * holds plus the events after it, and the full state of the sessions in `focus`, from their
 * snapshots where they hold. With `focus: "all"` it is the plain fold of every event. Reads the
 * file, never writes it; never holds the whole log in memory. Throws what reading the log
 * throws (`Deno.errors.NotFound` for a missing log).
 */
export async function foldSessions(logPath: string, options: FoldOptions): Promise<State> {
  const projections = options.projections ?? [];
  const bounds = {
    ...(options.at === undefined ? {} : { upTo: options.at }),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
  };
  const catalogProjections = options.catalogProjections ?? [];
  if (options.focus === "all") {
    const state = initialState(projections, catalogProjections);
    for await (const event of readLog(logPath, bounds)) {
      folding(logPath, event, () => evolve(state, event, projections, "all", catalogProjections));
    }
    return state;
  }
  const { catalog, lastSeq, index } = await foldCatalog(logPath, options);
  const state = initialState(projections, catalogProjections);
  state.catalog = catalog;
  state.lastSeq = lastSeq;
  const ids = options.focus.filter((id) => catalog.byId[id] !== undefined);
  if (ids.length === 0) return state;
  const loaded = await loadSessions(logPath, { ids, upTo: lastSeq, projections, catalog, index });
  return { ...loaded, catalog, lastSeq };
}
