import assert from "node:assert/strict";
import type { Envelope, JobSettings, JobStarted } from "../../events/event_types.ts";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { testStageContext } from "../../testing/stage_context.ts";
import { foldEvents, type State } from "../state/state.ts";
import { createBashTool } from "../tools/bash.ts";
import { inputJsonSchema, loadToolSchema, toolDefinition } from "../tools/schema.ts";
import { toolPool } from "../tools/tool_pool.ts";
import { BACKGROUND_BASH_INPUT_SCHEMA } from "./background_bash.ts";
import { createJobOutputTool, JOB_OUTPUT_INPUT_SCHEMA } from "./job_output_tool.ts";
import { createJobStopTool, JOB_STOP_INPUT_SCHEMA } from "./job_stop_tool.ts";
import { JobManager } from "./job_manager.ts";
import { jobArrivals, jobsMechanism } from "./jobs_mechanism.ts";
import { jobsProjection } from "./jobs_projection.ts";
import { hasFeature } from "../settings/session_features.ts";

const SETTINGS = {
  sources: [],
  flags: {},
  home: "/home/u",
  interactive: false,
  jobs: { timeoutMs: 60_000 },
};

function withoutJobs() {
  const { jobs: _jobs, ...settings } = SETTINGS;
  return settings;
}

function mechanism() {
  return jobsMechanism({
    workspace: "/work/project",
    log: () => {
      throw new Error("no log here");
    },
    monotonicMs: () => 0,
  });
}

function started(id: string, callId = `toolu_${id}`): JobStarted {
  return {
    id,
    callId,
    command: `run ${id}`,
    pid: 1,
    logPath: `.rein/jobs/${id}.log`,
    timeoutMs: 9,
  };
}

function end(id: string, ending: "exited" | "stopped" = "exited") {
  return { id, ending, exitCode: 0, durationMs: 5, outputBytes: 0, tail: "" };
}

/** A session recorded with job settings, then `build`'s events (of either agent), numbered in order. */
function fold(
  build: (
    e: ReturnType<typeof eventFactory>,
    helper: ReturnType<typeof eventFactory>,
  ) => Envelope[],
): State {
  const e = eventFactory();
  const helper = eventFactory("s1", "helper");
  const events = [e("session.started", startedData({ settings: SETTINGS })), ...build(e, helper)];
  return foldEvents(events.map((event, i) => ({ ...event, seq: i + 1 })), [jobsProjection]);
}

Deno.test("an agent's ended jobs wait for it in log order, except those it stopped or was told of", () => {
  const state = fold((e, helper) => [
    e("job.started", started("b1")),
    e("job.started", started("b2")),
    e("job.started", started("b3")),
    helper("job.started", started("b4")),
    e("job.started", started("b5")),
    e("job.finished", end("b2")),
    e("job.finished", end("b1")),
    e("job.finished", end("b3", "stopped")),
    helper("job.finished", end("b4")),
    e("job.lost", { id: "b5", pid: 1, logPath: ".rein/jobs/b5.log" }),
    e("arrival.injected", { source: "jobs", key: "b1", seq: 7, text: "…" }),
  ]);
  const arrivals = jobArrivals({ state, session: "s1", agent: "lead" });
  assert.deepEqual(arrivals.map((a) => [a.source, a.key, a.seq]), [["jobs", "b2", 7], [
    "jobs",
    "b5",
    11,
  ]]);
  assert.match(arrivals[1]?.text ?? "", /<status>lost<\/status>/);
  assert.deepEqual(jobArrivals({ state, session: "s1", agent: "helper" }).map((a) => a.key), [
    "b4",
  ]);
});

Deno.test("a resumed agent's jobs without an end are recorded lost, never another agent's", async () => {
  const state = fold((e, helper) => [
    e("job.started", started("b1")),
    e("job.started", started("b2")),
    e("job.finished", end("b2")),
    helper("job.started", started("b3")),
  ]);
  const events = await mechanism().stages?.resumed?.(testStageContext(state));
  assert.deepEqual(events, [
    { type: "job.lost", data: { id: "b1", pid: 1, logPath: ".rein/jobs/b1.log" } },
  ]);
});

Deno.test("sessions recorded with job settings get bash with run_in_background and the job tools", () => {
  const jobs = mechanism();
  const bash = createBashTool({ workspace: "/work/project" });
  const names = (state: State, agent = "lead") => {
    const scope = { state, session: "s1", agent };
    const pool = toolPool(scope, [() => [bash], jobs.tools ?? (() => [])], [jobs.filterTools!]);
    return pool.definitions.map((d) =>
      d.name === "bash" ? `bash(${Object.keys(d.input_schema.properties as object)})` : d.name
    );
  };
  assert.deepEqual(names(fold(() => [])), [
    "bash(command,timeout,description,run_in_background)",
    "job_output",
    "job_stop",
  ]);
  const e = eventFactory();
  const older = foldEvents([
    e("session.started", startedData({ settings: withoutJobs() })),
  ], [jobsProjection]);
  // The harness activates the mechanism only in sessions with the jobs feature (feature_gate.ts).
  assert.equal(hasFeature(older, "s1", "jobs"), false);
  assert.equal(hasFeature(fold(() => []), "s1", "jobs"), true);
  const child = fold(() => [
    eventFactory("s1", "explore-1")("agent.spawned", {
      parent: "lead",
      callId: "toolu_task",
      type: "Explore",
      description: "look around",
      model: "claude-test",
      maxTokens: 1000,
      maxTurns: 10,
    }),
  ]);
  assert.deepEqual(names(child, "explore-1"), ["bash(command,timeout,description)"]);
});

Deno.test("a session recorded with a job output cap is told of it; one recorded before, as it was told", () => {
  const jobs = mechanism();
  const bash = createBashTool({ workspace: "/work/project" });
  const descriptions = (settings: typeof SETTINGS & { jobs: JobSettings }) => {
    const e = eventFactory();
    const state = foldEvents([
      { ...e("session.started", startedData({ settings })), seq: 1 },
    ], [jobsProjection]);
    const scope = { state, session: "s1", agent: "lead" };
    const pool = toolPool(scope, [() => [bash], jobs.tools ?? (() => [])], [jobs.filterTools!]);
    return pool.definitions.map((d) => d.description ?? "");
  };
  const [oldBash, oldOutput] = descriptions(SETTINGS);
  assert.match(oldBash ?? "", /output goes to `\.rein\/jobs\/<id>\.log`, and when it ends/);
  assert.match(oldOutput ?? "", /cut in the middle; the whole output is in the job's log file\.$/);
  const [newBash, newOutput] = descriptions({
    ...SETTINGS,
    jobs: { timeoutMs: 60_000, outputMaxBytes: 65_536 },
  });
  assert.match(
    newBash ?? "",
    /`\.rein\/jobs\/<id>\.log` \(up to the job output cap, 4 MiB unless configured; past it the log keeps its first and last part, the middle cut\)/,
  );
  assert.match(newOutput ?? "", /all of it up to the job output cap \(4 MiB unless configured\)/);
});

Deno.test("the job tools ship the JSON Schemas their zod schemas give", async () => {
  const jobs = new JobManager({
    workspace: "/w",
    spawn: () => Promise.reject(new Error("not here")),
    log: () => {
      throw new Error("not here");
    },
    monotonicMs: () => 0,
  });
  const bash = mechanism().filterTools?.(
    { state: fold(() => []), session: "s1", agent: "lead" },
    [createBashTool({ workspace: "/w" })],
  )[0];
  const cases = [
    [bash, BACKGROUND_BASH_INPUT_SCHEMA],
    [createJobOutputTool(jobs, "/w"), JOB_OUTPUT_INPUT_SCHEMA],
    [createJobStopTool(jobs), JOB_STOP_INPUT_SCHEMA],
  ] as const;
  for (const [tool, schema] of cases) {
    assert.ok(tool);
    assert.deepEqual(inputJsonSchema(await loadToolSchema(tool)), schema, tool.name);
    assert.equal(
      JSON.stringify(toolDefinition(tool).input_schema),
      JSON.stringify(inputJsonSchema(await loadToolSchema(tool))),
      tool.name,
    );
  }
});
