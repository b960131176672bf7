import assert from "node:assert/strict";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { plainText } from "../state/rendered_line.ts";
import { foldEvents } from "../state/state.ts";
import { renderJobEvent, reportJobs } from "./jobs_render.ts";
import { jobsProjection } from "./jobs_projection.ts";

const STARTED = {
  id: "b1",
  callId: "t1",
  command: "npm test",
  pid: 42,
  logPath: ".rein/jobs/b1.log",
  timeoutMs: 60_000,
};

Deno.test("rein state's jobs: a job still running has run up to the session's last event", () => {
  const e = eventFactory();
  const state = foldEvents(
    [e("session.started", startedData()), e("job.started", STARTED)],
    [jobsProjection],
  );
  const started = Date.parse("2026-11-22T10:00:02.000Z");
  const at = new Date(started + 75_000).toISOString();
  const [section, ...more] = reportJobs(state, { session: "s1", at });
  assert.equal(section?.title, "jobs");
  assert.equal(more.length, 0);
  assert.match(plainText(section?.lines[0] ?? []), /b1.*1m 15s/);
  assert.deepEqual(reportJobs(state, { session: "s2", at }), []);
});

Deno.test("a job's end renders dim when it succeeded, yellow otherwise; its start renders nothing", () => {
  const e = eventFactory();
  const end = { id: "b1", durationMs: 2100, outputBytes: 0, tail: "" };
  assert.deepEqual(renderJobEvent(e("job.started", STARTED)), []);
  const ok = renderJobEvent(e("job.finished", { ...end, ending: "exited", exitCode: 0 }));
  assert.deepEqual(ok, [[{ text: "⏺ Job b1 ended: exit code 0 · 2.1s", style: "dim" }]]);
  const bad = renderJobEvent(e("job.finished", { ...end, ending: "exited", exitCode: 1 }));
  assert.equal(bad?.[0]?.[0]?.style, "yellow");
  assert.equal(renderJobEvent(e("cron.delivered", { id: "c1", minute: "m" })), undefined);
});
