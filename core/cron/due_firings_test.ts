import assert from "node:assert/strict";
import fc from "fast-check";
import { fire, tableOf, testJob } from "../../testing/cron_jobs.ts";
import { dueFirings, MISSED_COUNTED, nextTime, scheduleOf } from "./due_firings.ts";

const at = (iso: string) => new Date(iso);

Deno.test("a job is due once its first time after it was scheduled has come", () => {
  const table = tableOf(testJob());
  assert.deepEqual(dueFirings(table, at("2026-11-23T10:00:59.999Z"), "s1"), []);
  const [due, ...rest] = dueFirings(table, at("2026-11-23T10:01:00.000Z"), "s1");
  assert.equal(rest.length, 0);
  assert.deepEqual(
    { minute: due?.minute, late: due?.late, missed: due?.missed },
    { minute: "2026-11-23T10:01:00.000Z", late: false, missed: 0 },
  );
});

Deno.test("after a firing the job waits for its next time", () => {
  const table = tableOf(testJob({ lastFired: "2026-11-23T10:01:00.000Z" }));
  assert.deepEqual(dueFirings(table, at("2026-11-23T10:01:40Z"), "s1"), []);
  assert.equal(
    dueFirings(table, at("2026-11-23T10:02:00Z"), "s1")[0]?.minute,
    "2026-11-23T10:02:00.000Z",
  );
});

Deno.test("times missed while rein was not running fire once, late, for the last of them", () => {
  const table = tableOf(testJob({ lastFired: "2026-11-23T10:01:00.000Z" }));
  const [due] = dueFirings(table, at("2026-11-23T10:05:30Z"), "s1");
  assert.deepEqual(
    { minute: due?.minute, late: due?.late, missed: due?.missed },
    { minute: "2026-11-23T10:05:00.000Z", late: true, missed: 3 },
  );
  fire(table, dueFirings(table, at("2026-11-23T10:05:30Z"), "s1"), at("2026-11-23T10:05:30Z"));
  assert.deepEqual(dueFirings(table, at("2026-11-23T10:05:59Z"), "s1"), []);
  const next = dueFirings(table, at("2026-11-23T10:06:00Z"), "s1")[0];
  assert.equal(next?.late, false);
});

Deno.test("a one-shot time missed fires late, once, and the job is gone", () => {
  const once = testJob({ cron: "2026-11-23T11:00", recurring: false });
  const table = tableOf(once);
  const now = at("2026-11-23T13:10:00Z");
  const [due] = dueFirings(table, now, "s1");
  assert.deepEqual(
    { minute: due?.minute, late: due?.late, missed: due?.missed },
    { minute: "2026-11-23T11:00:00.000Z", late: true, missed: 0 },
  );
  fire(table, [due!], now);
  assert.deepEqual(table.jobs, {});
});

Deno.test("a process fires durable jobs and its own session's, not other sessions' own", () => {
  const table = tableOf(
    testJob({ id: "mine" }),
    testJob({ id: "theirs", session: "s2" }),
    testJob({ id: "kept", session: "s2", durable: true }),
  );
  const ids = (session: string) =>
    dueFirings(table, at("2026-11-23T10:01:00Z"), session).map((d) => d.job.id);
  assert.deepEqual(ids("s1"), ["kept", "mine"]);
  assert.deepEqual(ids("s2"), ["kept", "theirs"]);
  assert.deepEqual(ids("s3"), ["kept"]);
});

Deno.test("missed times are counted up to a bound", () => {
  const table = tableOf(testJob());
  const [due] = dueFirings(table, at("2026-12-23T10:00:00Z"), "s1");
  assert.equal(due?.missed, MISSED_COUNTED);
  assert.equal(due?.late, true);
});

Deno.test("expressions are read in the job's time zone", () => {
  const nine = testJob({ cron: "0 9 * * *", timeZone: "America/New_York" });
  assert.equal(
    nextTime(nine, at("2026-11-23T10:00:00Z"))?.toISOString(),
    "2026-11-23T14:00:00.000Z",
  );
});

const EXPRESSIONS = ["* * * * *", "*/5 * * * *", "0 * * * *", "15,45 * * * *", "*/7 9-17 * * 1-5"];
const START = Date.parse("2026-11-23T08:00:00Z");

/** Every time of `cron` strictly after `after` and at or before `until`. */
function timesOf(cron: string, after: number, until: number): number[] {
  const schedule = scheduleOf({ cron, timeZone: "UTC" })!;
  return schedule.between(new Date(after), new Date(until + 1), 100_000).map((d) => d.getTime());
}

const run = fc.record({
  cron: fc.constantFrom(...EXPRESSIONS),
  scheduledOffset: fc.integer({ min: 0, max: 3_600_000 }),
  // Gaps between clock readings: dense (a second) to long downtime (three hours).
  gaps: fc.array(fc.integer({ min: 1, max: 3 * 3_600_000 }), { minLength: 1, maxLength: 40 }),
});

Deno.test("property: every time of a schedule fires exactly once, alone or as one late firing", () => {
  fc.assert(
    fc.property(run, ({ cron, scheduledOffset, gaps }) => {
      const scheduledAt = START + scheduledOffset;
      const table = tableOf(testJob({ cron, scheduledAt: new Date(scheduledAt).toISOString() }));
      let now = scheduledAt;
      let covered = 0;
      let lastMinute = -Infinity;
      for (const gap of gaps) {
        now += gap;
        const due = dueFirings(table, new Date(now), "s1");
        assert.ok(due.length <= 1, "one job fires at most once per reading");
        for (const firing of due) {
          const minute = Date.parse(firing.minute);
          assert.ok(minute > lastMinute && minute <= now, "minutes only move forward, never ahead");
          assert.ok(timesOf(cron, minute - 1, minute).length === 1, "a time of the schedule");
          const thisMinute = Math.floor(now / 60_000) * 60_000;
          assert.equal(firing.late, firing.missed > 0 || minute < thisMinute);
          covered += firing.missed + 1;
          lastMinute = minute;
        }
        fire(table, due, new Date(now));
        assert.deepEqual(dueFirings(table, new Date(now), "s1"), [], "fired means not due again");
      }
      assert.equal(covered, timesOf(cron, scheduledAt, now).length, "nothing lost, nothing twice");
    }),
  );
});

Deno.test("property: read at least once a minute, a schedule never fires late", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...EXPRESSIONS),
      fc.array(fc.integer({ min: 1, max: 60_000 }), { minLength: 1, maxLength: 200 }),
      (cron, gaps) => {
        const table = tableOf(testJob({ cron, scheduledAt: new Date(START).toISOString() }));
        let now = START;
        for (const gap of gaps) {
          // A reading in every minute: gaps never skip a whole minute.
          const next = Math.min(now + gap, Math.floor(now / 60_000) * 60_000 + 119_999);
          now = next;
          const due = dueFirings(table, new Date(now), "s1");
          for (const firing of due) assert.equal(firing.late, false, `${cron} at ${now}`);
          fire(table, due, new Date(now));
        }
      },
    ),
  );
});

Deno.test("property: planning is a function of the table and the time", () => {
  fc.assert(
    fc.property(run, ({ cron, scheduledOffset, gaps }) => {
      const job = testJob({ cron, scheduledAt: new Date(START + scheduledOffset).toISOString() });
      const now = new Date(START + scheduledOffset + gaps.reduce((a, b) => a + b, 0));
      assert.deepEqual(dueFirings(tableOf(job), now, "s1"), dueFirings(tableOf(job), now, "s1"));
    }),
  );
});
