import { join } from "../../events/posix_path.ts";
import { pruneCatalogs } from "./catalog_snapshot.ts";
import { pointProblem } from "./log_point.ts";
import {
  headerProblem,
  readSnapshotHeader,
  snapshotDir,
  type SnapshotHeader,
} from "./snapshot_files.ts";

/**
 * A temporary file older than this is what an interrupted write left; a younger one may be a
 * write under way in another process.
 */
const TEMP_AGE_MS = 60 * 60 * 1000;

/**
 * Remove the snapshot files of the log at `logPath` that will never be trusted again: catalog
 * snapshots that no longer hold and those beyond the newest two that do (`pruneCatalogs`);
 * temporary files of writes interrupted more than an hour before `now`; and, with `sessions`
 * (or, by default, when a catalog snapshot no longer held: the fold code changed, or the log was
 * cut back or replaced), session snapshots of other fold code or layout, with an unreadable
 * header, or whose place no longer holds in the log. Checking every session snapshot costs about
 * half a millisecond each, hence not on every call. Reads only their headers (one with a bad body
 * is ignored by readers, and replaced by the session's next snapshot). Only removes files inside
 * `snapshotDir(logPath)` named as snapshots are; never the log. Does nothing when the log is
 * missing. Resolves to the paths removed; never throws.
 */
export async function pruneSnapshots(
  logPath: string,
  now: Date,
  options: { sessions?: boolean } = {},
): Promise<string[]> {
  if (!(await Deno.stat(logPath).then((info) => info.isFile, () => false))) return [];
  const catalogs = await pruneCatalogs(logPath).catch(() => ({ removed: [], stale: false }));
  const removed = [...catalogs.removed];
  const sessions = options.sessions ?? catalogs.stale;
  const dir = snapshotDir(logPath);
  /** Whether each place the session snapshots were taken at still holds (many share one). */
  const holds = new Map<string, Promise<boolean>>();
  const placeHolds = (header: SnapshotHeader) => {
    const key = `${header.seq}:${header.offset}:${header.lineHash}`;
    let known = holds.get(key);
    if (known === undefined) {
      known = pointProblem(logPath, header).then((problem) => problem === undefined);
      holds.set(key, known);
    }
    return known;
  };
  const remove = async (path: string) => {
    if (await Deno.remove(path).then(() => true, () => false)) removed.push(path);
  };
  for (const folder of [dir, join(dir, "sessions")]) {
    for (const name of await namesIn(folder)) {
      const path = join(folder, name);
      if (name.endsWith(".tmp")) {
        const mtime = await Deno.stat(path).then((info) => info.mtime, () => null);
        const age = now.getTime() - (mtime?.getTime() ?? now.getTime());
        if (age > TEMP_AGE_MS) await remove(path);
        continue;
      }
      if (!sessions || folder === dir || !name.endsWith(".json")) continue;
      const header = await readSnapshotHeader(path);
      const stale = header === undefined || headerProblem(header) !== undefined ||
        header.kind !== "session" || !(await placeHolds(header));
      if (stale) await remove(path);
    }
  }
  return removed;
}

/** The names of the files in `folder`; none when it cannot be read. */
async function namesIn(folder: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) if (entry.isFile) names.push(entry.name);
  } catch {
    // No such folder: nothing to prune.
  }
  return names;
}
