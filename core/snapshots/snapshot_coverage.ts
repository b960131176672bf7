/** One snapshot file beside a log, as `rein log stats` reports it. */
export interface SnapshotCoverage {
  /** seq of the last event the snapshot covers. */
  seq: number;
  /** Byte offset in the log just past the line holding `seq`. */
  offset: number;
  /** Sessions in the snapshot's catalog. */
  sessions: number;
  /** Whether it was taken by the fold code of this build. */
  fingerprintMatches: boolean;
  /** Whether it would be trusted now: fingerprint, checksum and offset all check out. */
  valid: boolean;
  path: string;
  /** When it was written (ISO 8601). */
  takenAt: string;
}

/**
 * The snapshots stored for the log at `logPath`, newest first, each checked against the log as
 * it is now. An empty list when there are none. Never throws for a bad snapshot file.
 */
export function snapshotCoverage(_logPath: string): Promise<SnapshotCoverage[]> {
  return Promise.resolve([]);
}
