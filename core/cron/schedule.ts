import { Cron } from "croner";

/** The times a job runs at: whole minutes, from a cron expression or a one-shot time. */
export interface Schedule {
  /** The first time strictly after `after`, or null when there is none. */
  next(after: Date): Date | null;
  /** The last time at or before `at`, or null when there is none. */
  latest(at: Date): Date | null;
  /** Up to `limit` times strictly after `after` and strictly before `before`, oldest first. */
  between(after: Date, before: Date, limit: number): Date[];
}

/** A schedule read from its text, or why it cannot be. */
export type ParsedSchedule =
  | { ok: true; schedule: Schedule; once: boolean }
  | { ok: false; reason: string };

/** An ISO 8601 date-time, as a one-shot job's schedule is written. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Read a job's schedule: a standard 5-field cron expression (`M H DoM Mon DoW`, read in
 * `timeZone`; parsed by croner, with its ranges, steps, lists and names), or an ISO 8601
 * date-time for a job that runs once (without an offset it is read in `timeZone`; seconds round
 * up to the next whole minute). Pure; never throws: an invalid text gives the reason, worded for
 * the model.
 */
export function parseSchedule(text: string, timeZone: string): ParsedSchedule {
  const trimmed = text.trim();
  if (ISO_TIME.test(trimmed)) return parseTime(trimmed, timeZone);
  const fields = trimmed.split(/\s+/).filter(Boolean).length;
  if (fields !== 5) {
    return {
      ok: false,
      reason: `"${text}" has ${fields} field${fields === 1 ? "" : "s"}: a cron expression has ` +
        'exactly 5 (minute hour day-of-month month day-of-week, as in "*/5 * * * *"), and a ' +
        'one-shot time is an ISO 8601 date-time such as "2026-11-23T14:30"',
    };
  }
  let cron: Cron;
  try {
    cron = new Cron(trimmed, { timezone: timeZone, mode: "5-part", paused: true });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: `"${text}" is not a valid cron expression: ${cleanReason(detail)}`,
    };
  }
  if (cron.nextRun(new Date(0)) === null) {
    return { ok: false, reason: `"${text}" never matches a date` };
  }
  return { ok: true, once: false, schedule: cronSchedule(cron) };
}

function cronSchedule(cron: Cron): Schedule {
  return {
    next: (after) => cron.nextRun(after),
    latest: (at) => cron.previousRuns(1, new Date(at.getTime() + 1))[0] ?? null,
    between(after, before, limit) {
      const times: Date[] = [];
      let at: Date | null = after;
      while (times.length < limit) {
        at = cron.nextRun(at);
        if (at === null || at.getTime() >= before.getTime()) break;
        times.push(at);
      }
      return times;
    },
  };
}

function parseTime(text: string, timeZone: string): ParsedSchedule {
  const [year, month, day, hour, minute] = text.split(/[-T:]/).map((part) => parseInt(part, 10));
  const date = new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day ?? 0));
  if (
    date.getUTCMonth() + 1 !== month || date.getUTCDate() !== day || (hour ?? 0) > 23 ||
    (minute ?? 0) > 59
  ) {
    return { ok: false, reason: `"${text}" is not a valid time: no such date or hour` };
  }
  let at: Date | null;
  try {
    // croner reads a time without an offset in the job's time zone.
    at = new Cron(text, { timezone: timeZone, paused: true }).nextRun(new Date(0));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `"${text}" is not a valid time: ${cleanReason(detail)}` };
  }
  if (at === null) return { ok: false, reason: `"${text}" is not a valid time` };
  const whole = Math.ceil(at.getTime() / 60_000) * 60_000;
  return { ok: true, once: true, schedule: onceAt(new Date(whole)) };
}

function onceAt(time: Date): Schedule {
  const ms = time.getTime();
  return {
    next: (after) => ms > after.getTime() ? time : null,
    latest: (at) => ms <= at.getTime() ? time : null,
    between: (after, before) => ms > after.getTime() && ms < before.getTime() ? [time] : [],
  };
}

/** croner's message without its class prefix ("CronPattern: "). */
function cleanReason(message: string): string {
  return message.replace(/^Cron\w*:\s*/, "");
}
