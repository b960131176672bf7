import { catalogSnapshotFiles } from "./catalog_snapshot.ts";
import { pointProblem } from "./log_point.ts";
import { readSnapshotFile, sessionSnapshotPath, snapshotDir } from "./snapshot_files.ts";

/** One snapshot file beside a log, as `rein log stats` reports it. */
export interface SnapshotCoverage {
  /** Of the catalog (every session), or of one session's full state (`session`). */
  kind: "catalog" | "session";
  session?: string;
  /** seq of the last event the snapshot covers. */
  seq: number;
  /** Byte offset in the log just past the line holding `seq`. */
  offset: number;
  /** Sessions in the snapshot: the catalog's, or 1 for one session's full state. */
  sessions: number;
  /** Whether it was taken by the fold code of this build. */
  fingerprintMatches: boolean;
  /** Whether it would be trusted now: fingerprint, checksum and place in the log all hold. */
  valid: boolean;
  path: string;
  /** When it was written (ISO 8601). */
  takenAt: string;
}

/**
 * The snapshots stored for the log at `logPath`: catalog snapshots newest first, then the
 * sessions' snapshots, each checked against the log as it is now. An empty list when there are
 * none. Reads only; never throws for a bad snapshot file.
 */
export async function snapshotCoverage(logPath: string): Promise<SnapshotCoverage[]> {
  const paths = await catalogSnapshotFiles(logPath);
  try {
    const names: string[] = [];
    for await (const entry of Deno.readDir(`${snapshotDir(logPath)}/sessions`)) {
      if (entry.isFile && entry.name.endsWith(".json")) names.push(entry.name);
    }
    for (const name of names.sort()) {
      paths.push(sessionSnapshotPath(logPath, decodeURIComponent(name.slice(0, -5))));
    }
  } catch {
    // no session snapshots
  }
  const found: SnapshotCoverage[] = [];
  for (const path of paths) {
    const file = await readSnapshotFile(path);
    if (file === undefined) continue;
    const { header } = file;
    const point = { seq: header.seq, offset: header.offset, lineHash: header.lineHash };
    const holds = file.problem === undefined && await pointProblem(logPath, point) === undefined;
    found.push({
      kind: header.kind === "session" ? "session" : "catalog",
      ...(header.session === undefined ? {} : { session: header.session }),
      seq: header.seq,
      offset: header.offset,
      sessions: header.sessions,
      fingerprintMatches: file.problem !== "taken by other fold code" &&
        !file.problem?.startsWith("layout"),
      valid: holds,
      path,
      takenAt: header.takenAt,
    });
  }
  return found;
}
