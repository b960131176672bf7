import type { CronFired, CronJob } from "../../events/event_types.ts";
import type { CronTable } from "./cron_table_projection.ts";
import { parseSchedule, type Schedule } from "./schedule.ts";

/** Missed times of one job counted at most (a job every minute left for a week misses 10,080). */
export const MISSED_COUNTED = 1000;

/** A job found due, and what its firing records. */
export interface DueFiring {
  job: CronJob;
  /** The time of its schedule it fires for: the last one at or before now. */
  minute: string;
  /** True when its first time not fired yet is a minute before now's: it was missed. */
  late: boolean;
  /** Times before `minute` not fired (at most {@link MISSED_COUNTED}). */
  missed: number;
}

/** Whether a process running `session` fires `job`: a durable job, or one of the session's. */
export function firesIn(job: CronJob, session: string): boolean {
  return job.durable || job.session === session;
}

/**
 * Which jobs of `table` a process running `session` fires at `now`: each job (see
 * {@link firesIn}) with a time of its schedule after its last firing (or, before the first,
 * after it was scheduled) and at or before `now`. However many such times there are, the job
 * fires once, for the last of them; it is late when the first of them lies in a minute before
 * `now`'s (rein was not running, or was held up, when it came), and the others are counted as
 * missed. Ordered by minute, then job id. Pure: a function of the table and `now` alone.
 */
export function dueFirings(table: CronTable, now: Date, session: string): DueFiring[] {
  const due: DueFiring[] = [];
  const thisMinute = Math.floor(now.getTime() / 60_000) * 60_000;
  for (const job of Object.values(table.jobs)) {
    if (!firesIn(job, session)) continue;
    const schedule = scheduleOf(job);
    if (schedule === undefined) continue;
    const since = new Date(job.lastFired ?? job.scheduledAt);
    const first = schedule.next(since);
    if (first === null || first.getTime() > now.getTime()) continue;
    const last = schedule.latest(now) ?? first;
    due.push({
      job,
      minute: last.toISOString(),
      late: first.getTime() < thisMinute,
      missed: schedule.between(since, last, MISSED_COUNTED).length,
    });
  }
  return due.sort((a, b) =>
    a.minute < b.minute ? -1 : a.minute > b.minute ? 1 : a.job.id < b.job.id ? -1 : 1
  );
}

/** The `cron.fired` payload of a due firing found at `now`. Pure. */
export function firedData(due: DueFiring, now: Date): CronFired {
  return {
    id: due.job.id,
    minute: due.minute,
    firedAt: now.toISOString(),
    late: due.late,
    missed: due.missed,
    prompt: due.job.prompt,
  };
}

/** The next time `job` fires after `now` (or after its last firing, if later), if any. Pure. */
export function nextTime(job: CronJob, now: Date): Date | null {
  const schedule = scheduleOf(job);
  if (schedule === undefined) return null;
  const since = new Date(Math.max(now.getTime(), Date.parse(job.lastFired ?? job.scheduledAt)));
  return schedule.next(since);
}

/** Parsed schedules by time zone and text: the scheduler plans every second. */
const parsed = new Map<string, Schedule | undefined>();

/** The schedule of `job` (undefined for a text no schedule can be read from). Pure. */
export function scheduleOf(job: Pick<CronJob, "cron" | "timeZone">): Schedule | undefined {
  const key = `${job.timeZone}\n${job.cron}`;
  if (!parsed.has(key)) {
    const result = parseSchedule(job.cron, job.timeZone);
    if (parsed.size > 1000) parsed.clear();
    parsed.set(key, result.ok ? result.schedule : undefined);
  }
  return parsed.get(key);
}
