import type { CronJob, Envelope } from "../events/event_types.ts";
import type { CronTable } from "../core/cron/cron_table_projection.ts";
import { evolveCronTable } from "../core/cron/cron_table_projection.ts";
import { type DueFiring, firedData } from "../core/cron/due_firings.ts";

/** A job for the cron tests: every minute, in UTC, of session s1, scheduled at 10:00:30. */
export function testJob(overrides: Partial<CronJob> = {}): CronJob {
  return {
    id: "job1",
    cron: "* * * * *",
    prompt: "check the deploy",
    recurring: true,
    durable: false,
    timeZone: "UTC",
    scheduledAt: "2026-11-23T10:00:30.000Z",
    session: "s1",
    agent: "lead",
    lastFired: null,
    ...overrides,
  };
}

/** A table of `jobs`. */
export function tableOf(...jobs: CronJob[]): CronTable {
  return { jobs: Object.fromEntries(jobs.map((job) => [job.id, structuredClone(job)])) };
}

let seq = 1000;

/** Fold the firings of `due`, found at `now`, into `table` as `cron.fired` events of s1. */
export function fire(table: CronTable, due: readonly DueFiring[], now: Date): void {
  for (const firing of due) {
    const event = {
      v: 2,
      seq: ++seq,
      ts: now.toISOString(),
      type: "cron.fired",
      session: "s1",
      agent: "lead",
      data: firedData(firing, now),
    } as Envelope;
    evolveCronTable(table, event);
  }
}
