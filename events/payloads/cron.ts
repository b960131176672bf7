import type { EventTable } from "./_payload.ts";

/**
 * A job scheduled with `schedule_cron` (Claude Code's CronCreate): a prompt to run at the times of
 * a schedule. Recorded by the tool, with the clock reading it was scheduled at.
 */
export interface CronScheduled {
  /** Eight hex digits, unique in the workspace (derived from the session and the call). */
  id: string;
  /**
   * When it runs: a 5-field cron expression (`M H DoM Mon DoW`, read in `timeZone`), or an
   * ISO 8601 time for a one-shot job (a whole minute).
   */
  cron: string;
  /** What the agent is told when it fires (as `[Scheduled] <prompt>`). */
  prompt: string;
  /** True: it fires at every time of its schedule until cancelled; false: once, then it is gone. */
  recurring: boolean;
  /**
   * True: it belongs to the workspace and fires in any session rein runs there, after restarts;
   * false: it belongs to its session and ends when the session ends.
   */
  durable: boolean;
  /** The IANA time zone its expression is read in (the machine's when it was scheduled). */
  timeZone: string;
  /** The clock reading it was scheduled at: its first time is the first one after this. */
  scheduledAt: string;
}

/** A job as the workspace's cron table holds it: as scheduled, whose it is, and where it stands. */
export interface CronJob extends CronScheduled {
  /** The session that scheduled it (a non-durable job fires only there). */
  session: string;
  /** The agent that scheduled it. */
  agent: string;
  /** The time (a whole minute, ISO 8601) of its last firing; null before the first. */
  lastFired: string | null;
}

/** A job cancelled with `cancel_cron` (Claude Code's CronDelete). */
export interface CronCancelled {
  id: string;
}

/**
 * A job fired: one time of its schedule came, and its prompt is due to the event's agent (the
 * main agent of the session that fired it). Appended under the log's lock by the first process
 * that found it due (never twice for one job and minute), from outside the agent's loop: replay
 * feeds it at its recorded place.
 */
export interface CronFired {
  id: string;
  /** The time of the schedule that fired: a whole minute, ISO 8601. */
  minute: string;
  /** The clock reading that found it due. */
  firedAt: string;
  /**
   * True when it fires after its minute had passed (rein was not running then): one firing
   * stands for every time missed.
   */
  late: boolean;
  /** Times of the schedule missed before `minute` and not fired (at most 1000 are counted). */
  missed: number;
  prompt: string;
}

/**
 * A firing was taken up as a prompt of its own (`[Scheduled] <prompt>`, the `user.prompted` right
 * after this): the agent was idle when it fired. A firing that reaches a busy agent joins its next
 * request instead (`arrival.injected`).
 */
export interface CronDelivered {
  id: string;
  minute: string;
}

/**
 * What a cron tool call read before it ran: the clock, the time zone and the jobs the calling
 * session sees (durable ones and its own). Recorded before the call's intent, so replay runs the
 * tool again on the same reading.
 */
export interface CronRead {
  callId: string;
  now: string;
  timeZone: string;
  jobs: CronJob[];
}

/** Cron (s14). */
export interface CronEvents {
  "cron.scheduled": CronScheduled;
  "cron.cancelled": CronCancelled;
  "cron.fired": CronFired;
  "cron.delivered": CronDelivered;
  "cron.read": CronRead;
}

/** The event types of CronEvents, for validation on read. */
export const CRON_EVENTS: EventTable<CronEvents> = {
  "cron.scheduled": true,
  "cron.cancelled": true,
  "cron.fired": true,
  "cron.delivered": true,
  "cron.read": true,
};
