import assert from "node:assert/strict";
import type { JobStarted, NewEvent } from "../../events/event_types.ts";
import { MemoryEventStore } from "../../events/memory_store.ts";
import { startedData } from "../../testing/event_factory.ts";
import { cronProjection } from "../cron/cron_projection.ts";
import { cronWake } from "../cron/cron_wake.ts";
import { jobWake } from "../jobs/job_wake.ts";
import { jobArrivals } from "../jobs/jobs_mechanism.ts";
import { jobsProjection } from "../jobs/jobs_projection.ts";
import type { Mechanism } from "../mechanism.ts";
import { evolve, initialState } from "../state/state.ts";
import {
  awaitedWakes,
  pendingWakes,
  waitForWake,
  waitingLine,
  type WakeHost,
  wakeSourcesOf,
  wokenBy,
} from "./wake.ts";

const mechanisms: Mechanism[] = [
  { name: "cron", projection: cronProjection, wake: cronWake(() => new Date(0)) },
  { name: "jobs", projection: jobsProjection, wake: jobWake(jobArrivals) },
];

/** A memory log whose state the mechanisms' projections fold, as a harness's is. */
function host(): WakeHost & { append(...events: NewEvent[]): Promise<void> } {
  const projections = [cronProjection, jobsProjection];
  const state = initialState(projections);
  const store = new MemoryEventStore({
    clock: () => new Date("2026-11-23T10:00:00Z"),
    onEvent: (event) => evolve(state, event, projections),
  });
  return {
    store,
    state,
    mechanisms,
    async append(...events) {
      await store.append(events);
    },
  };
}

const of = <T extends NewEvent["type"]>(type: T, data: unknown, agent = "lead") =>
  ({ type, data, session: "s1", agent }) as NewEvent;

function job(id: string, description?: string): JobStarted {
  return {
    id,
    callId: `toolu_${id}`,
    command: `run ${id}`,
    ...(description ? { description } : {}),
    pid: 1,
    logPath: `.rein/jobs/${id}.log`,
    timeoutMs: 60_000,
  };
}

const ended = (id: string) => ({
  id,
  ending: "exited",
  exitCode: 0,
  durationMs: 5,
  outputBytes: 0,
  tail: "",
});

const firing = {
  id: "c1",
  minute: "2026-11-23T10:01:00.000Z",
  firedAt: "2026-11-23T10:01:02.000Z",
  late: false,
  missed: 0,
  prompt: "check the deploy",
};

const scope = { session: "s1", agent: "lead" };

Deno.test("what wakes an idle agent: a cron firing (as its prompt) and a job's end (its arrivals), oldest first, only its own", async () => {
  const h = host();
  await h.append(
    of(
      "session.started",
      startedData({
        settings: {
          sources: [],
          flags: {},
          home: "/h",
          interactive: false,
          jobs: { timeoutMs: 60_000 },
        },
      }),
    ),
    of("job.started", job("b1", "Run the tests")), // seq 2
    of("job.started", job("b2")), // seq 3
    of("job.started", job("b3"), "helper"), // seq 4
  );
  const sources = wakeSourcesOf(h.mechanisms);
  assert.deepEqual(pendingWakes(sources, h.state, scope), []);
  // Jobs started after seq 2 that still run: a run that started then waits for them.
  assert.deepEqual(awaitedWakes(h, scope, 2), [{ kind: "background job", label: "b2 (run b2)" }]);
  assert.equal(
    waitingLine(awaitedWakes(h, scope, 0)),
    "Waiting for background jobs b1 (Run the tests), b2 (run b2)…",
  );
  assert.equal(
    waitingLine(awaitedWakes(h, scope, 2)),
    "Waiting for background job b2 (run b2)…",
  );

  await h.append(
    of("job.finished", ended("b2")), // seq 5
    of("cron.fired", firing), // seq 6
    of("job.finished", ended("b1")), // seq 7
    of("job.finished", ended("b3"), "helper"),
  );
  const wakes = pendingWakes(sources, h.state, scope);
  assert.deepEqual(wakes, [
    { source: "jobs", key: "b2", seq: 5 },
    {
      source: "cron",
      key: "c1@2026-11-23T10:01:00.000Z",
      seq: 6,
      prompt: "[Scheduled] check the deploy",
    },
    { source: "jobs", key: "b1", seq: 7 },
  ]);
  assert.deepEqual(awaitedWakes(h, scope, 0), []);
  // A job's turn takes up every job end waiting with it; a firing is its own prompt.
  assert.equal(wokenBy(h, scope, wakes[0]!), "jobs b2, jobs b1");
  assert.equal(wokenBy(h, scope, wakes[1]!), "[Scheduled] check the deploy");
  assert.deepEqual(pendingWakes(sources, h.state, { session: "s1", agent: "helper" }), [
    { source: "jobs", key: "b3", seq: 8 },
  ]);
});

Deno.test("waitForWake waits for the event that wakes the agent, and stops when its signal aborts", async () => {
  const h = host();
  await h.append(
    of(
      "session.started",
      startedData({
        settings: {
          sources: [],
          flags: {},
          home: "/h",
          interactive: false,
          jobs: { timeoutMs: 60_000 },
        },
      }),
    ),
    of("job.started", job("b1")),
  );
  const waiting = waitForWake(h, scope, new AbortController().signal);
  await h.append(of("job.finished", ended("b1")));
  assert.deepEqual(await waiting, { source: "jobs", key: "b1", seq: 3 });

  await h.append(of("arrival.injected", { source: "jobs", key: "b1", seq: 3, text: "…" }));
  const controller = new AbortController();
  const nothing = waitForWake(h, scope, controller.signal);
  await h.append(of("job.started", job("b2")));
  controller.abort(new Error("The person typed"));
  await assert.rejects(nothing, /The person typed/);
});
