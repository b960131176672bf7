import assert from "node:assert/strict";
import type { CronScheduled } from "../../events/event_types.ts";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { catalogSliceOf, emptyCatalog, evolveCatalog } from "../state/catalog.ts";
import { cronTableProjection } from "./cron_table_projection.ts";

const JOB: CronScheduled = {
  id: "a1b2c3d4",
  cron: "*/5 * * * *",
  prompt: "check the deploy",
  recurring: true,
  durable: false,
  timeZone: "UTC",
  scheduledAt: "2026-11-23T10:00:30.000Z",
};

function fold(events: ReturnType<ReturnType<typeof eventFactory>>[]) {
  const catalog = emptyCatalog([cronTableProjection]);
  for (const event of events) evolveCatalog(catalog, event, [cronTableProjection]);
  return catalogSliceOf(catalog, cronTableProjection);
}

Deno.test("the catalog keeps every session's jobs, with who scheduled them", () => {
  const s1 = eventFactory("s1", "lead");
  const table = fold([s1("session.started", startedData()), s1("cron.scheduled", JOB)]);
  assert.deepEqual(table.jobs[JOB.id], { ...JOB, session: "s1", agent: "lead", lastFired: null });
});

Deno.test("a firing moves the job on; a repeated or older minute changes nothing", () => {
  const e = eventFactory();
  const fired = (minute: string) =>
    e("cron.fired", {
      id: JOB.id,
      minute,
      firedAt: minute,
      late: false,
      missed: 0,
      prompt: JOB.prompt,
    });
  const table = fold([
    e("session.started", startedData()),
    e("cron.scheduled", JOB),
    fired("2026-11-23T10:05:00.000Z"),
    fired("2026-11-23T10:05:00.000Z"),
    fired("2026-11-23T10:00:00.000Z"),
  ]);
  assert.equal(table.jobs[JOB.id]?.lastFired, "2026-11-23T10:05:00.000Z");
});

Deno.test("a one-shot job is gone once it fired, a cancelled one at once", () => {
  const e = eventFactory();
  const table = fold([
    e("session.started", startedData()),
    e("cron.scheduled", { ...JOB, id: "once", recurring: false }),
    e("cron.scheduled", { ...JOB, id: "every" }),
    e("cron.scheduled", { ...JOB, id: "other" }),
    e("cron.fired", {
      id: "once",
      minute: "2026-11-23T10:05:00.000Z",
      firedAt: "2026-11-23T10:05:00.000Z",
      late: false,
      missed: 0,
      prompt: "p",
    }),
    e("cron.cancelled", { id: "every" }),
  ]);
  assert.deepEqual(Object.keys(table.jobs), ["other"]);
});

Deno.test("a session's end ends its own jobs, not durable ones nor other sessions'", () => {
  const s1 = eventFactory("s1", "lead");
  const s2 = eventFactory("s2", "lead");
  const table = fold([
    s1("session.started", startedData()),
    s2("session.started", startedData()),
    s1("cron.scheduled", { ...JOB, id: "s1-own" }),
    s1("cron.scheduled", { ...JOB, id: "s1-durable", durable: true }),
    s2("cron.scheduled", { ...JOB, id: "s2-own" }),
    s1("session.ended", { reason: "prompt_input_exit" }),
  ]);
  assert.deepEqual(Object.keys(table.jobs).sort(), ["s1-durable", "s2-own"]);
});

Deno.test("the first job of an id wins", () => {
  const e = eventFactory();
  const table = fold([
    e("session.started", startedData()),
    e("cron.scheduled", JOB),
    e("cron.scheduled", { ...JOB, prompt: "another" }),
  ]);
  assert.equal(table.jobs[JOB.id]?.prompt, JOB.prompt);
});
