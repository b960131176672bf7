import type { Envelope } from "../../events/event_types.ts";
import type { Projection } from "./projection.ts";
import { emptySessions, evolveSessions } from "./sessions.ts";

/**
 * The root fold: one entry per concern, each a pure fold of the whole log into its own slice.
 * A mechanism's projection joins the product with one line here.
 */
const ROOT = {
  sessions: { initial: emptySessions, evolve: evolveSessions },
};

/** A concern's fold, as the loop over the root sees it: it mutates its slice in place. */
type RootFold = (slice: unknown, event: Envelope) => unknown;

type RootSlices = { [K in keyof typeof ROOT]: ReturnType<(typeof ROOT)[K]["initial"]> };

/** The whole projected state of a log: the product of the concerns' slices. */
export type State = RootSlices & {
  /** seq of the last event folded. */
  lastSeq: number;
  /** Slices of projections registered with the harness (by key); see {@link Projection}. */
  extensions: Record<string, unknown>;
};

/** The state of an empty log, with a slice for each registered projection. */
export function initialState(extensions: readonly Projection[] = []): State {
  const slices = Object.fromEntries(
    Object.entries(ROOT).map(([key, slice]) => [key, slice.initial()]),
  ) as RootSlices;
  return {
    ...slices,
    lastSeq: 0,
    extensions: Object.fromEntries(extensions.map((p) => [p.key, p.initial()])),
  };
}

/**
 * Fold one event into the state: every concern of the root fold, then every registered
 * projection. Mutates and returns `state` (the projection owns it). Reads no clock, env, disk or
 * network; never throws on a well-formed log.
 */
export function evolve(
  state: State,
  event: Envelope,
  extensions: readonly Projection[] = [],
): State {
  state.lastSeq = event.seq;
  for (const [key, concern] of Object.entries(ROOT)) {
    (concern.evolve as RootFold)(state[key as keyof RootSlices], event);
  }
  for (const projection of extensions) {
    state.extensions[projection.key] = projection.evolve(state.extensions[projection.key], event);
  }
  return state;
}

/** Fold a sequence of events from the empty state. */
export function foldEvents(
  events: Iterable<Envelope>,
  extensions: readonly Projection[] = [],
): State {
  const state = initialState(extensions);
  for (const event of events) evolve(state, event, extensions);
  return state;
}

/** The slice of a registered projection. Throws if it was not registered. */
export function sliceOf<Slice>(state: State, projection: Projection<Slice>): Slice {
  if (!(projection.key in state.extensions)) {
    throw new Error(`Projection "${projection.key}" is not registered with this harness`);
  }
  return state.extensions[projection.key] as Slice;
}
