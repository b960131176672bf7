import { foldCatalog } from "../core/snapshots/mod.ts";
import type { LogIndex as Places } from "../core/snapshots/catalog_snapshot.ts";
import { type IndexedSession, indexLog, type LogIndex } from "./session_index.ts";

/** Where the sessions of a log are, for `replay`, and how much of the log that read decoded. */
export interface ReplayIndex {
  index: LogIndex;
  /**
   * seq up to which the log's lines were not decoded to find the sessions (they were counted in
   * the catalog snapshot): 0 when every line was.
   */
  unread: number;
  /** Places to start reading the log from (the catalog snapshot's, and the read after it). */
  places: Places;
}

/**
 * Where the sessions of the log at `path` are: from its catalog (the newest catalog snapshot
 * that holds, and the events after it) when the catalog accounts for every event of the log, as
 * it does when each session's first event is its `session.started`; otherwise from reading the
 * whole log ({@link indexLog}: a session with events before its start, or none, is in no
 * catalog). Throws what `foldCatalog` and `indexLog` throw.
 */
export async function replayIndex(
  path: string,
  onNotice: (message: string) => void,
): Promise<ReplayIndex> {
  const { catalog, lastSeq, snapshot, index: places } = await foldCatalog(path, { onNotice });
  const sessions: IndexedSession[] = [];
  let events = 0;
  for (const id of catalog.order) {
    const entry = catalog.byId[id];
    if (!entry) break;
    const { firstSeq } = entry;
    sessions.push({
      id,
      firstSeq,
      startedSeq: firstSeq,
      lastSeq: entry.lastSeq,
      events: entry.events,
    });
    events += entry.events;
  }
  // Seqs are gapless from 1: the catalog's sessions hold every event when their counts add up.
  const whole = sessions.length === catalog.order.length &&
    new Set(catalog.order).size === catalog.order.length && events === lastSeq;
  if (whole) return { index: { lastSeq, sessions }, unread: snapshot?.point.seq ?? 0, places };
  // foldCatalog has given the notices for the log's end already.
  return { index: await indexLog(path, { upTo: lastSeq }), unread: 0, places };
}
