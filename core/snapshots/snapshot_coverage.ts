import { processMachineKey } from "../effects/machine_key.ts";
import { catalogSnapshotFiles, namedAsItHolds } from "./catalog_snapshot.ts";
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
  /**
   * Whether it would be trusted now: signed here, fingerprint, checksum, name and place in the log
   * all hold.
   */
  valid: boolean;
  /** Why it would not be trusted, when it would not. */
  problem?: string;
  /**
   * Whether it is this build's layout and fold code and fails a check rein's own writes pass
   * (signature, checksum, JSON, its name): written or changed by something other than rein on
   * this machine. `replay --verify` fails for it.
   */
  tampered: boolean;
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
  const key = await processMachineKey();
  for (const path of paths) {
    const file = await readSnapshotFile(path, { key });
    if (file === undefined) continue;
    const { header } = file;
    const point = { seq: header.seq, offset: header.offset, lineHash: header.lineHash };
    const misnamed = header.kind === "session"
      ? path !== sessionSnapshotPath(logPath, header.session ?? "")
      : header.kind !== "catalog" || !namedAsItHolds(logPath, path, header.seq);
    const problem = file.problem ??
      (misnamed ? "its name is not the one of what its header says it holds" : undefined) ??
      await pointProblem(logPath, point);
    const holds = problem === undefined;
    found.push({
      kind: header.kind === "session" ? "session" : "catalog",
      ...(header.session === undefined ? {} : { session: header.session }),
      seq: header.seq,
      offset: header.offset,
      sessions: header.sessions,
      fingerprintMatches: file.problem !== "taken by other fold code" &&
        !file.problem?.startsWith("layout"),
      valid: holds,
      ...(problem === undefined ? {} : { problem }),
      tampered: file.tampered === true || (file.problem === undefined && misnamed),
      path,
      takenAt: header.takenAt,
    });
  }
  return found;
}
