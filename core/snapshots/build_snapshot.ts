import { readLog } from "../../events/read_log.ts";
import type { CatalogProjection } from "../state/catalog.ts";
import type { Projection } from "../state/projection.ts";
import { evolve, initialState } from "../state/state.ts";
import {
  type CatalogStart,
  latestCatalog,
  type LogIndex,
  writeCatalogSnapshot,
} from "./catalog_snapshot.ts";
import { loadSessions } from "./load_sessions.ts";
import { folding } from "./_folding.ts";
import { writeSessionSnapshot } from "./session_snapshot.ts";
import { pruneSnapshots } from "./prune_snapshots.ts";

/** What {@link buildSnapshot} wrote. */
export interface BuiltSnapshot {
  /** The place of the snapshots: the last complete line of the log when it was read. */
  seq: number;
  offset: number;
  /** Sessions in the catalog, and sessions whose full state was stored. */
  sessions: number;
  sessionStates: number;
}

/**
 * Take a snapshot of the log at `logPath` now (`rein log snapshot`, tests, benches): the catalog,
 * with the mechanisms' workspace-wide slices (`catalogProjections`, rein's:
 * `reinCatalogProjections`), folded from the newest snapshot that holds them (or from the start)
 * to the last complete line, and the full state of each session of `options.sessions` with the
 * mechanisms' `projections`; then
 * removes the snapshot files that will never be trusted again (`pruneSnapshots`). Reads the log,
 * never writes it; writes only into its snapshot directory. Throws what reading
 * the log throws.
 */
export async function buildSnapshot(
  logPath: string,
  options: {
    sessions?: readonly string[];
    projections?: readonly Projection[];
    catalogProjections?: readonly CatalogProjection[];
    clock?: () => Date;
    onNotice?: (message: string) => void;
  } = {},
): Promise<BuiltSnapshot> {
  const clock = options.clock ?? (() => new Date());
  const catalogProjections = options.catalogProjections ?? [];
  const from = await latestCatalog(logPath, Infinity, catalogProjections);
  const state = initialState([], catalogProjections);
  let end = { seq: 0, offset: 0 };
  const index: LogIndex = [...from?.index ?? []];
  if (from) {
    state.catalog = from.catalog;
    state.lastSeq = from.point.seq;
    end = from.point;
  }
  const none = new Set<string>();
  const read = {
    ...(from ? { start: from.point } : {}),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    onEnd: (at: { seq: number; offset: number }) => end = at,
    onProgress: (at: { seq: number; offset: number }) => index.push([at.seq, at.offset]),
  };
  for await (const event of readLog(logPath, read)) {
    folding(logPath, event, () => evolve(state, event, [], none, catalogProjections));
  }
  if (end.seq === 0) return { seq: 0, offset: 0, sessions: 0, sessionStates: 0 };
  await writeCatalogSnapshot(logPath, { catalog: state.catalog, ...end, index }, clock());
  const projections = options.projections ?? [];
  const ids = (options.sessions ?? []).filter((id) => state.catalog.byId[id] !== undefined);
  let sessionStates = 0;
  if (ids.length > 0) {
    const loaded = await loadSessions(logPath, {
      ids,
      upTo: end.seq,
      projections,
      catalog: state.catalog,
      index,
    });
    for (const id of ids) {
      if (await writeSessionSnapshot(logPath, loaded, id, projections, end, clock())) {
        sessionStates++;
      }
    }
  }
  await pruneSnapshots(logPath, clock(), { sessions: true });
  return { ...end, sessions: state.catalog.order.length, sessionStates };
}

/** Bytes past the newest snapshot from which a start takes a new one before opening the log. */
const LONG_SUFFIX = 8 << 20;

/**
 * The catalog to start the log at `logPath` from: the newest snapshot that holds; but when the
 * log holds more than 8 MiB past it (or there is none and the log is that long), a snapshot is
 * taken first, by a read that keeps nothing of the log (a store opened at the start would keep a
 * copy of every byte it read for a rescue). Only snapshots holding the slices of `projections`
 * count. Undefined when there is no snapshot (a short or missing log). Throws what reading the
 * log throws.
 */
export async function catalogToStartFrom(
  logPath: string,
  projections: readonly CatalogProjection[] = [],
): Promise<CatalogStart | undefined> {
  const latest = await latestCatalog(logPath, Infinity, projections);
  const size = await Deno.stat(logPath).then((info) => info.size, () => 0);
  if (size - (latest?.point.offset ?? 0) <= LONG_SUFFIX) return latest;
  await buildSnapshot(logPath, { catalogProjections: projections });
  return await latestCatalog(logPath, Infinity, projections);
}
