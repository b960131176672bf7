import assert from "node:assert/strict";
import type { JobStarted } from "../../events/event_types.ts";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { foldEvents } from "../state/state.ts";
import { jobsOf } from "./jobs_of.ts";
import { jobsProjection } from "./jobs_projection.ts";

const STARTED: JobStarted = {
  id: "b00000001",
  callId: "toolu_1",
  command: "npm test",
  pid: 4242,
  logPath: ".rein/jobs/b00000001.log",
  timeoutMs: 60_000,
};
const FINISHED = {
  id: "b00000001",
  ending: "exited" as const,
  exitCode: 0,
  durationMs: 1500,
  outputBytes: 3,
  tail: "ok",
};

Deno.test("a job is folded from its start, its end and its notification", () => {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData()),
    e("job.started", STARTED),
    e("job.finished", FINISHED),
    e("arrival.injected", { source: "jobs", key: "b00000001", seq: 3, text: "…" }),
  ], [jobsProjection]);
  assert.deepEqual(jobsOf(state, "s1"), [{
    ...STARTED,
    agent: "lead",
    startedSeq: 2,
    startedAt: "2026-11-22T10:00:02.000Z",
    end: { kind: "finished", seq: 3, ...FINISHED },
    notified: true,
  }]);
});

Deno.test("an end for a job never started, a second end and another source's arrival are ignored", () => {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData()),
    e("job.finished", { ...FINISHED, id: "b0000000f" }),
    e("job.started", STARTED),
    e("job.lost", { id: "b00000001", pid: 4242, logPath: STARTED.logPath }),
    e("job.finished", FINISHED),
    e("arrival.injected", { source: "cron", key: "b00000001", seq: 4, text: "…" }),
  ], [jobsProjection]);
  const [job, ...others] = jobsOf(state, "s1");
  assert.deepEqual(others, []);
  assert.deepEqual(job?.end, {
    kind: "lost",
    seq: 4,
    id: "b00000001",
    pid: 4242,
    logPath: STARTED.logPath,
  });
  assert.equal(job?.notified, false);
});

Deno.test("a forked session starts without its source's jobs", () => {
  const e = eventFactory();
  const fork = eventFactory("s2");
  const state = foldEvents([
    e("session.started", startedData()),
    e("job.started", STARTED),
    fork("session.started", startedData({ forkedFrom: { session: "s1", seq: 2 } })),
  ], [jobsProjection]);
  assert.equal(jobsOf(state, "s1").length, 1);
  assert.deepEqual(jobsOf(state, "s2"), []);
});
