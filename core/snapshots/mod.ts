/**
 * Snapshots of the log's projections (design.md §3): the session catalog and single sessions'
 * full states at a place in the log (seq, byte offset, hash of that line), stored beside the log
 * (`snapshots/<log name>/`) and keyed by a fingerprint of the fold code, so that a start-up,
 * a resume or `rein state` folds only what follows them. A snapshot that does not hold is
 * ignored, never trusted.
 */
export { type SnapshotCoverage, snapshotCoverage } from "./snapshot_coverage.ts";
export { buildSnapshot, type BuiltSnapshot, catalogToStartFrom } from "./build_snapshot.ts";
export {
  type CatalogStart,
  latestCatalog,
  type LogIndex,
  writeCatalogSnapshot,
} from "./catalog_snapshot.ts";
export { sessionSnapshot, type SessionStart, writeSessionSnapshot } from "./session_snapshot.ts";
export {
  type FoldOptions,
  foldSessions,
  forkSources,
  type LoadRequest,
  loadSessions,
} from "./load_sessions.ts";
export { extendIndex, type Snapshots, type SnapshotsOptions, startSnapshots } from "./snapshots.ts";
export { snapshotDir } from "./snapshot_files.ts";
export {
  catalogName,
  fileSnapshots,
  rowSnapshots,
  sessionName,
  sessionOfName,
  type SnapshotPlace,
  type SnapshotRows,
} from "./snapshot_place.ts";
export { type CatalogFold, foldCatalog } from "./fold_catalog.ts";
export { pruneSnapshots } from "./prune_snapshots.ts";
