import { readLog } from "../events/read_log.ts";
import type { Envelope } from "../events/event_types.ts";
import type { CatalogEntry } from "../core/state/catalog.ts";
import type { CatalogFold } from "../core/snapshots/mod.ts";
import { indexPoint } from "../core/snapshots/log_point.ts";
import { reinMechanisms, reinProjections } from "../core/harness.ts";
import { evolveSlices } from "../core/state/state.ts";
import { foldError } from "./fold.ts";
import type { SweepReady, SweepSink, SweepUnit } from "./session_sweep.ts";

/** Mechanism projections `rein state` folds: every one a session folds (see `reinProjections`). */
export const STATE_PROJECTIONS = reinProjections();

/** rein's mechanisms that report on a session in `rein state` (`Mechanism.report`), in order. */
export const STATE_MECHANISMS = reinMechanisms({ workspace: "/" }).filter((m) =>
  m.report !== undefined
);

/**
 * How many events `state` holds at once (open sessions, and sessions waiting for an earlier one
 * to be printed): what bounds its memory, whatever the log's length.
 */
export const SWEEP_BUDGET = 50_000;

/**
 * The events of the log up to the catalog's last, from the place of the catalog's index nearest
 * before event `from`, of `sessions` only when given (other lines are skipped undecoded).
 */
export async function readFrom(
  path: string,
  fold: CatalogFold,
  from: number,
  sessions?: readonly string[],
): Promise<AsyncIterable<Envelope>> {
  const start = await indexPoint(path, fold.index, from - 1);
  return readLog(path, {
    upTo: fold.lastSeq,
    ...(start ? { start } : {}),
    ...(sessions ? { sessions } : {}),
  });
}

/** The sessions `ids` as the sweep takes them, in order of their first event. Pure. */
export function unitsOf(
  byId: Readonly<Record<string, CatalogEntry>>,
  ids: readonly string[],
): SweepUnit[] {
  return ids.flatMap((id) => {
    const entry = byId[id];
    return entry ? [{ id, start: entry.firstSeq, end: entry.lastSeq, weight: entry.events }] : [];
  }).sort((a, b) => a.start - b.start);
}

/** A session folded only into the mechanisms' `slices` (a fork's source), printing nothing. */
export function slicesSink(slices: Record<string, unknown>, path: string): SweepSink {
  return {
    add: (event) => foldSlices(slices, event, path),
    close: () => NOTHING_HELD,
  };
}

const NOTHING_HELD: SweepReady = { weight: 0, emit() {} };

/** Fold `event` into the slices of {@link STATE_PROJECTIONS}, reporting a damaged payload. */
function foldSlices(slices: Record<string, unknown>, event: Envelope, path: string): void {
  try {
    evolveSlices(slices, event, STATE_PROJECTIONS);
  } catch (error) {
    throw foldError(path, error, event);
  }
}
