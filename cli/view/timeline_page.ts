import { readLog } from "../../events/read_log.ts";
import type { LogIndex } from "../../core/snapshots/catalog_snapshot.ts";
import { indexPoint } from "../../core/snapshots/log_point.ts";
import { type TimelineItem, timelineItem } from "./timeline_item.ts";

/** A page of a session's timeline. */
export interface TimelinePage {
  items: TimelineItem[];
  /** The seq to read the next page from; null when the page reached the log's end. */
  next: number | null;
}

/**
 * The timeline rows of session `session` from seq `from` on, at most `limit`, read from the log at
 * `path` from the place of `index` nearest before `from` (other sessions' lines skipped
 * undecoded). A model answer's latency is the time since its agent's request, when the page
 * holds the request. Reads the log only.
 */
export async function timelinePage(
  path: string,
  session: string,
  index: LogIndex,
  from: number,
  limit: number,
): Promise<TimelinePage> {
  const start = await indexPoint(path, index, from - 1);
  const items: TimelineItem[] = [];
  const asked = new Map<string, number>();
  for await (const event of readLog(path, { sessions: [session], ...(start ? { start } : {}) })) {
    if (event.seq < from || event.session !== session) continue;
    if (items.length === limit) return { items, next: event.seq };
    const item = timelineItem(event);
    if (event.type === "model.requested") asked.set(event.agent, Date.parse(event.ts));
    if (event.type === "model.responded") {
      const at = asked.get(event.agent);
      if (at !== undefined) item.latencyMs = Date.parse(event.ts) - at;
    }
    items.push(item);
  }
  return { items, next: null };
}
