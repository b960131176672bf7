/**
 * Snapshots of the log's projections (design.md §3): the session catalog and per-session states
 * at a seq and byte offset, stored beside the log and keyed by a fingerprint of the fold code.
 */
export { type SnapshotCoverage, snapshotCoverage } from "./snapshot_coverage.ts";
