import { basename } from "../../events/posix_path.ts";
import type { PlacedStartPoint } from "../../events/start_point.ts";
import { processMachineKey } from "../effects/machine_key.ts";
import { type Catalog, type CatalogProjection, holdsSlices } from "../state/catalog.ts";
import {
  catalogSnapshotPath,
  checkSnapshotText,
  snapshotDir,
  snapshotText,
} from "./snapshot_files.ts";
import { catalogName, placeOf, type SnapshotPlace } from "./snapshot_place.ts";

/** Catalog snapshots kept per log: the newest, and one to fall back on. */
const KEPT = 2;

/**
 * Places in a log to start reading from, as (seq, byte offset) pairs in seq order, about 1 MiB
 * apart: to read one session from near its start. Checked (the line's seq) before use.
 */
export type LogIndex = [seq: number, offset: number][];

/** A catalog as of a place in the log, from a snapshot that holds there. */
export interface CatalogStart {
  catalog: Catalog;
  point: PlacedStartPoint;
  /** Places before `point` to start reading from. */
  index: LogIndex;
  path: string;
}

/** What a catalog snapshot file holds. */
interface CatalogBody {
  catalog: Catalog;
  index: LogIndex;
}

/** The catalog snapshot files of a log, newest (highest seq) first. */
export async function catalogSnapshotFiles(logPath: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(snapshotDir(logPath))) {
      if (entry.isFile && /^catalog-\d+\.json$/.test(entry.name)) names.push(entry.name);
    }
  } catch {
    return [];
  }
  return names.sort().reverse().map((name) => `${snapshotDir(logPath)}/${name}`);
}

/**
 * Whether the catalog snapshot at `path` is named as its header says (`catalog-<seq>.json`): a
 * file named for a later seq than it holds would be taken for the newest. Pure.
 */
export function namedAsItHolds(logPath: string, path: string, seq: number): boolean {
  return basename(path) === basename(catalogSnapshotPath(logPath, seq));
}

/** The names of the catalog snapshots of `place`, newest (highest seq) first. */
async function catalogNames(place: SnapshotPlace): Promise<string[]> {
  return (await place.catalogNames()).sort().reverse();
}

/**
 * The newest catalog snapshot of the log at `logPath` (or of a {@link SnapshotPlace}) that can be trusted (written and signed by
 * rein on this machine, this build's fold code, intact, named as its header says, its place
 * still holding in the log, holding a slice for each of `projections`) and is at or before
 * `atMost` when given; undefined when there is none. Others are skipped, never trusted. Never
 * throws for a bad file.
 */
export async function latestCatalog(
  log: string | SnapshotPlace,
  atMost = Infinity,
  projections: readonly CatalogProjection[] = [],
): Promise<CatalogStart | undefined> {
  const place = placeOf(log);
  const key = await processMachineKey();
  for (const name of await catalogNames(place)) {
    const path = place.pathOf(name);
    const text = await place.read(name);
    const file = text === undefined ? undefined : await checkSnapshotText(path, text, { key });
    if (file === undefined || file.problem !== undefined || file.header.kind !== "catalog") {
      continue;
    }
    if (name !== catalogName(file.header.seq)) continue;
    if (file.header.seq > atMost) continue;
    const point = {
      seq: file.header.seq,
      offset: file.header.offset,
      lineHash: file.header.lineHash,
    };
    if (await place.pointProblem(point) !== undefined) continue;
    const body = file.body as Partial<CatalogBody> | null;
    if (!isCatalog(body?.catalog) || !Array.isArray(body.index)) continue;
    // Taken by a fold without one of these slices (an embedder's mechanism added since).
    if (!holdsSlices(body.catalog, projections)) continue;
    return { catalog: body.catalog, point, index: body.index, path };
  }
  return undefined;
}

/**
 * Store the catalog as of event `seq`, whose line ends at byte `offset`, as a snapshot (the
 * catalog is serialized at the call, so it may change meanwhile); `pruneSnapshots` removes the
 * older ones. Resolves to false, writing nothing, when no line of the log ends at `offset`.
 * Throws for an I/O error.
 */
export async function writeCatalogSnapshot(
  log: string | SnapshotPlace,
  snapshot: { catalog: Catalog; seq: number; offset: number; index?: LogIndex },
  takenAt: Date,
): Promise<boolean> {
  const index = (snapshot.index ?? []).filter(([seq]) => seq <= snapshot.seq);
  const text = JSON.stringify({ catalog: snapshot.catalog, index } satisfies CatalogBody);
  const sessions = snapshot.catalog.order.length;
  const place = placeOf(log);
  const point = await place.pointAt(snapshot.seq, snapshot.offset);
  if (point === undefined) return false;
  const header = { kind: "catalog" as const, ...point, takenAt: takenAt.toISOString(), sessions };
  await place.write(catalogName(point.seq), await snapshotText(header, text));
  return true;
}

/**
 * Remove the catalog snapshots that no longer hold in the log (it was cut back or replaced:
 * they never will again, nor will one of other fold code, nor one not signed here or misnamed)
 * and the holding ones beyond the newest {@link KEPT}. Resolves to the paths removed, and whether any of them no longer held (a sign that
 * session snapshots may not either).
 */
export async function pruneCatalogs(
  log: string | SnapshotPlace,
): Promise<{ removed: string[]; stale: boolean }> {
  const place = placeOf(log);
  const removed: string[] = [];
  let kept = 0;
  let stale = false;
  const key = await processMachineKey();
  for (const name of await catalogNames(place)) {
    const path = place.pathOf(name);
    const text = await place.read(name);
    const file = text === undefined
      ? undefined
      : await checkSnapshotText(path, text, { body: false, key });
    const holds = file !== undefined && file.problem === undefined &&
      name === catalogName(file.header.seq) &&
      await place.pointProblem(file.header) === undefined;
    if (holds && kept < KEPT) {
      kept++;
      continue;
    }
    stale ||= !holds;
    if (await place.remove(name)) removed.push(path);
  }
  return { removed, stale };
}

function isCatalog(body: unknown): body is Catalog {
  if (typeof body !== "object" || body === null) return false;
  const { byId, order, recentPrompts } = body as Record<string, unknown>;
  return typeof byId === "object" && byId !== null && Array.isArray(order) &&
    Array.isArray(recentPrompts);
}
