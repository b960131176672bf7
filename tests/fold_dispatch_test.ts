/**
 * The fold calls a projection only for the event types it declares (`Projection.canHandle`): for
 * rein's own projections, that must give the slices a fold that shows every projection every
 * event gives, or a projection has left out a type its `evolve` reacts to.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Envelope, NewEvent } from "../events/event_types.ts";
import { reinProjections } from "../core/harness.ts";
import type { Projection } from "../core/state/projection.ts";
import { foldEvents } from "../core/state/state.ts";
import { generateEvents } from "../testing/generate_log.ts";
import { randomLog } from "../testing/random_log.ts";

const PROJECTIONS = reinProjections();

/** Every projection folds every event, as before projections declared their types. */
function foldEveryEvent(events: readonly Envelope[], projections: readonly Projection[]) {
  const slices: Record<string, unknown> = {};
  for (const projection of projections) slices[projection.key] = projection.initial();
  for (const event of events) {
    for (const projection of projections) {
      slices[projection.key] = projection.evolve(slices[projection.key], event);
    }
  }
  return slices;
}

function envelopes(events: readonly NewEvent[]): Envelope[] {
  return events.map((event, i) =>
    ({ v: 2, seq: i + 1, ts: "2026-11-22T10:00:00.000Z", ...event }) as Envelope
  );
}

const JOB = { id: "b1", callId: "t1", command: "sleep 1", pid: 7, logPath: "b1.log", timeoutMs: 1 };
const FIRING = {
  id: "c1",
  minute: "2026-11-22T10:01:00.000Z",
  firedAt: "2026-11-22T10:01:00.000Z",
  late: false,
  missed: 0,
  prompt: "check",
};

/** A session that uses cron and background jobs, which the generated logs do not. */
const CRON_AND_JOBS = envelopes([
  {
    type: "session.started",
    data: {
      model: "m",
      workspace: "/w",
      startedAt: "2026-11-22T10:00:00.000Z",
      maxTokens: 100,
      platform: "linux",
    },
  },
  { type: "cron.read", data: { callId: "t0", jobs: [], now: "2026-11-22T10:00:00.000Z" } },
  {
    type: "tool.completed",
    data: { callId: "t0", name: "cron_list", content: "", isError: false, durationMs: 1 },
  },
  { type: "cron.fired", data: FIRING },
  { type: "cron.fired", data: { ...FIRING, minute: "2026-11-22T10:02:00.000Z" } },
  { type: "cron.delivered", data: { id: "c1", minute: FIRING.minute } },
  {
    type: "arrival.injected",
    data: { source: "cron", key: "c1@2026-11-22T10:02:00.000Z", seq: 5, text: "x" },
  },
  { type: "job.started", data: JOB },
  { type: "job.started", data: { ...JOB, id: "b2" } },
  {
    type: "job.finished",
    data: {
      id: "b1",
      ending: "exited",
      exitCode: 0,
      signal: null,
      durationMs: 5,
      outputBytes: 0,
      tail: "",
    },
  },
  { type: "job.lost", data: { id: "b2", pid: 8, logPath: "b2.log" } },
  { type: "arrival.injected", data: { source: "jobs", key: "b1", seq: 10, text: "done" } },
].map((event) => ({ ...event, session: "s1", agent: "lead" }) as NewEvent));

Deno.test("rein's projections declare every type they fold: a generated log of every kind of turn", () => {
  const events = envelopes(generateEvents({ events: 3000 }).map(({ event }) => event).toArray());
  assert.deepEqual(
    foldEvents(events, PROJECTIONS).extensions,
    foldEveryEvent(events, PROJECTIONS),
  );
});

Deno.test("rein's projections declare every type they fold: cron firings and background jobs", () => {
  const folded = foldEvents(CRON_AND_JOBS, PROJECTIONS).extensions;
  assert.deepEqual(folded, foldEveryEvent(CRON_AND_JOBS, PROJECTIONS));
  assert.notDeepEqual(folded["jobs"], {});
});

Deno.test("rein's projections declare every type they fold: random logs with forks", () => {
  fc.assert(fc.property(randomLog(), (events) => {
    assert.deepEqual(
      foldEvents(events, PROJECTIONS).extensions,
      foldEveryEvent(events, PROJECTIONS),
    );
  }));
});
