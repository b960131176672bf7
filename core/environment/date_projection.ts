import type { Envelope } from "../../events/event_types.ts";
import type { Projection } from "../state/projection.ts";

/** The `source` of the reminder that the date has changed. */
export const DATE_SOURCE = "date";

/** The date (YYYY-MM-DD) each session's model last heard, by session id. */
export type DatesSlice = Record<string, string>;

/**
 * The date the model of each session last heard: the date of its start, then the date of each
 * "the date is now" reminder. Pure.
 */
export const datesProjection: Projection<DatesSlice> = {
  key: "dates",
  canHandle: ["session.started", "reminder.added"],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    if (event.type === "session.started") {
      slice[event.session] = event.data.startedAt.slice(0, 10);
    } else if (event.type === "reminder.added" && event.data.source === DATE_SOURCE) {
      const date = /\d{4}-\d{2}-\d{2}/.exec(event.data.text)?.[0];
      if (date !== undefined) slice[event.session] = date;
    }
    return slice;
  },
};
