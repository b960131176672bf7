import { totalCost } from "../models/cost.ts";
import { catalogSliceOf } from "../state/catalog.ts";
import type { State } from "../state/state.ts";
import {
  type Roster,
  rosterProjection,
  type TeammateEntry,
  type TeammateStatus,
} from "./roster_projection.ts";

/** The workspace's roster in a state. Pure. */
export function rosterOf(state: State): Roster {
  return catalogSliceOf(state.catalog, rosterProjection);
}

/** The teammates of `session`, in the order they were spawned. Pure. */
export function teammatesOf(state: State, session: string): TeammateEntry[] {
  const roster = rosterOf(state);
  return roster.order.flatMap((key) => {
    const entry = roster.byKey[key];
    return entry !== undefined && entry.session === session ? [entry] : [];
  });
}

/** Whether a teammate in `status` is there to work or be written to. */
export function isLive(status: TeammateStatus): boolean {
  return status === "working" || status === "idle" || status === "waiting";
}

/**
 * The names of `session`'s live teammates (working, idle or waiting), in the order they were
 * spawned: who mail can reach besides the lead (`mailRecipients`), and whom a resumed lead starts
 * again. Pure.
 */
export function liveTeammates(state: State, session: string): string[] {
  return teammatesOf(state, session).flatMap((entry) => isLive(entry.status) ? [entry.name] : []);
}

/** What a teammate's responses cost in dollars, by the catalogue's prices (0: unknown). Pure. */
export function teammateCost(entry: TeammateEntry): number {
  return totalCost(entry.usageByModel);
}
