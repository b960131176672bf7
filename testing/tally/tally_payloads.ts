import type { EventTable } from "../../events/payloads/_payload.ts";

/** The tally of a session went up by `by`, to `total` (a `tally_add` call). */
export interface TallyAdded {
  by: number;
  total: number;
}

/**
 * Someone outside the agent's loop asked it to add `by` (another process appended it): it reaches
 * the agent as an arrival, and wakes it when it is idle.
 */
export interface TallyAsked {
  by: number;
}

/** The tally (a toy mechanism, testing/tally/). */
export interface TallyEvents {
  "tally.added": TallyAdded;
  "tally.asked": TallyAsked;
}

/** The event types of TallyEvents, for validation on read. */
export const TALLY_EVENTS: EventTable<TallyEvents> = {
  "tally.added": true,
  "tally.asked": true,
};
