import { readLog } from "../../events/read_log.ts";
import {
  type Catalog,
  type CatalogProjection,
  emptyCatalog,
  evolveCatalog,
} from "../state/catalog.ts";
import { type CatalogStart, latestCatalog, type LogIndex } from "./catalog_snapshot.ts";
import { folding } from "./_folding.ts";

/** The catalog of a log as of a seq, and what was read to get it. */
export interface CatalogFold {
  catalog: Catalog;
  /** seq of the last event folded: the log's last, or `at` when it ends later. */
  lastSeq: number;
  /**
   * Places to start reading the log from (the snapshot's, then those of the read after it), in
   * seq order: to read a session from near its start.
   */
  index: LogIndex;
  /** The snapshot the catalog started from; undefined when it was folded from the start. */
  snapshot: CatalogStart | undefined;
}

/**
 * The catalog of the log at `logPath` up to event `at` (the whole log when omitted), with the
 * workspace-wide slices of `catalogProjections` (rein's: `reinCatalogProjections`; none when omitted):
 * the newest catalog snapshot at or before `at` that can be trusted and holds those slices, plus
 * the events after it, or the fold of every event when no snapshot holds. Reads the file, never writes it; keeps no event.
 * Throws what reading the log throws (`Deno.errors.NotFound` for a missing log,
 * `LogCorruptionError` for a damaged line or a payload the catalog rejects).
 */
export async function foldCatalog(
  logPath: string,
  options: {
    at?: number | undefined;
    onNotice?: (message: string) => void;
    catalogProjections?: readonly CatalogProjection[] | undefined;
  } = {},
): Promise<CatalogFold> {
  const at = options.at ?? Infinity;
  const projections = options.catalogProjections ?? [];
  const snapshot = await latestCatalog(logPath, at, projections);
  const catalog = snapshot?.catalog ?? emptyCatalog(projections);
  const index: LogIndex = [...snapshot?.index ?? []];
  let lastSeq = snapshot?.point.seq ?? 0;
  const read = {
    ...(options.at === undefined ? {} : { upTo: options.at }),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    ...(snapshot ? { start: snapshot.point } : {}),
    onProgress: (place: { seq: number; offset: number }) => index.push([place.seq, place.offset]),
  };
  if (at > lastSeq) {
    for await (const event of readLog(logPath, read)) {
      folding(logPath, event, () => evolveCatalog(catalog, event, projections));
      lastSeq = event.seq;
    }
  }
  return { catalog, lastSeq, index, snapshot };
}
