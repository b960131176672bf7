import type { EventTable } from "./_payload.ts";

/**
 * Input that reached an agent from outside its loop (a background job's end, a cron firing, mail
 * from another agent) and is put before the model with its next request: recorded by the loop
 * just before that request's `model.requested`, in the order the arrivals have in the log. The
 * text joins the next user message as it is (a `<task-notification>`, say).
 */
export interface ArrivalInjected {
  /** The mechanism the arrival belongs to (`jobs`). */
  source: string;
  /** What arrived, unique within its source (a job's id). */
  key: string;
  /** seq of the event it arrived with (for a job lost at a resume, the `job.lost`). */
  seq: number;
  text: string;
}

/** Arrivals from outside an agent's loop (design.md §11), as its loop takes them in. */
export interface ArrivalEvents {
  "arrival.injected": ArrivalInjected;
}

/** The event types of ArrivalEvents, for validation on read. */
export const ARRIVAL_EVENTS: EventTable<ArrivalEvents> = {
  "arrival.injected": true,
};
