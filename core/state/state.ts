import type { Envelope } from "../../events/event_types.ts";
import type { Projection } from "./projection.ts";
import { type Catalog, type CatalogProjection, emptyCatalog, evolveCatalog } from "./catalog.ts";
import { evolveSlices } from "./slices.ts";
import { emptySessions, evolveSessions } from "./sessions.ts";

export { evolveSlices } from "./slices.ts";

/**
 * The root fold of the sessions in focus: one entry per concern, each a pure fold of those
 * sessions' events into its own slice. A mechanism's projection joins the product with one line
 * here.
 */
const ROOT = {
  sessions: { initial: emptySessions, evolve: evolveSessions },
};

/** The root's concerns, listed once (the fold goes through them for every event). */
const ROOT_CONCERNS = Object.entries(ROOT);

/** A concern's fold, as the loop over the root sees it: it mutates its slice in place. */
type RootFold = (slice: unknown, event: Envelope) => unknown;

type RootSlices = { [K in keyof typeof ROOT]: ReturnType<(typeof ROOT)[K]["initial"]> };

/**
 * Which sessions a fold follows in full (their views and the mechanisms' slices): every one, or
 * those named. The catalog follows every session either way. A process that starts a new session
 * needs none; one that resumes a session needs that one (and, to fold it from its start, the
 * sessions it was forked from).
 */
export type Focus = "all" | ReadonlySet<string>;

/** Whether `focus` follows `session` in full. Pure. */
export function inFocus(focus: Focus, session: string): boolean {
  return focus === "all" || focus.has(session);
}

/**
 * The projected state of a log: the catalog of every session, and the product of the concerns'
 * slices over the sessions in focus (see {@link Focus}): `sessions.byId` holds the full views of
 * those sessions only.
 */
export type State = RootSlices & {
  /** Every session of the log, without its conversation. */
  catalog: Catalog;
  /** seq of the last event folded. */
  lastSeq: number;
  /** Slices of projections registered with the harness (by key); see {@link Projection}. */
  extensions: Record<string, unknown>;
};

/**
 * The state of an empty log, with a slice for each registered projection, and a catalog with a
 * slice for each workspace-wide one (`catalog`).
 */
export function initialState(
  extensions: readonly Projection[] = [],
  catalog: readonly CatalogProjection[] = [],
): State {
  const slices = Object.fromEntries(
    Object.entries(ROOT).map(([key, slice]) => [key, slice.initial()]),
  ) as RootSlices;
  return {
    ...slices,
    catalog: emptyCatalog(catalog),
    lastSeq: 0,
    extensions: Object.fromEntries(extensions.map((p) => [p.key, p.initial()])),
  };
}

/**
 * Fold one event into the state: the catalog (with the workspace-wide slices of `catalog`), and
 * when its session is in `focus` (every session unless given), every concern of the root fold and
 * every registered projection. Mutates and returns `state` (the projection owns it). Reads no
 * clock, env, disk or network; never throws on a well-formed log.
 */
export function evolve(
  state: State,
  event: Envelope,
  extensions: readonly Projection[] = [],
  focus: Focus = "all",
  catalog: readonly CatalogProjection[] = [],
): State {
  state.lastSeq = event.seq;
  evolveCatalog(state.catalog, event, catalog);
  if (inFocus(focus, event.session)) evolveFocused(state, event, extensions);
  return state;
}

/**
 * Fold one event into the slices of the sessions in focus only (not the catalog, not `lastSeq`):
 * for a caller that folds the catalog and a session from different points of the log. Mutates
 * `state`; pure otherwise.
 */
export function evolveFocused(
  state: State,
  event: Envelope,
  extensions: readonly Projection[] = [],
): void {
  for (const [key, concern] of ROOT_CONCERNS) {
    (concern.evolve as RootFold)(state[key as keyof RootSlices], event);
  }
  evolveSlices(state.extensions, event, extensions);
}

/**
 * Fold a sequence of events from the empty state, following the sessions in `focus`, with the
 * workspace-wide slices of `catalog`.
 */
export function foldEvents(
  events: Iterable<Envelope>,
  extensions: readonly Projection[] = [],
  focus: Focus = "all",
  catalog: readonly CatalogProjection[] = [],
): State {
  const state = initialState(extensions, catalog);
  for (const event of events) evolve(state, event, extensions, focus, catalog);
  return state;
}

/** The slice of a registered projection. Throws if it was not registered. */
export function sliceOf<Slice>(state: State, projection: Projection<Slice>): Slice {
  if (!(projection.key in state.extensions)) {
    throw new Error(`Projection "${projection.key}" is not registered with this harness`);
  }
  return state.extensions[projection.key] as Slice;
}
