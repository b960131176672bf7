/**
 * Resource limits of background jobs (issue 20 §6), with real processes and real files: a job
 * that writes without end (`yes`) keeps at most its output cap on disk and says how much it cut,
 * its timeout stops it under that output pressure and its end says so, and a job whose output
 * fits is kept whole; each log replays with --verify.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope, EnvelopeOf, EventType } from "../events/event_types.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import {
  type FakeAnthropic,
  type FakeScriptFn,
  message,
  type RecordedRequest,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { toolResultCount } from "../testing/scenarios.ts";
import { startTestSession, type TestSession } from "../testing/test_session.ts";
import { killProcessesIn, waitForDeath } from "../testing/tool_helpers.ts";
import { runCli } from "./_cli.ts";
import { CliProcess } from "./_cli_process.ts";

/** The output cap a job gets when the person sets none: 4 MiB. */
const DEFAULT_CAP = 4 * 1024 * 1024;

/** Recorded with job settings and Bash allowed, as the CLI records a session. */
const WITH_JOBS = {
  recordSettings: { settings: { permissions: { allow: ["Bash"] } }, jobs: { timeoutMs: 60_000 } },
};

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

function eventsOf<T extends EventType>(events: readonly Envelope[], type: T): EnvelopeOf<T>[] {
  return events.filter((event): event is EnvelopeOf<T> => event.type === type);
}

/** Every request's conversation, as text. */
function conversationText(request: RecordedRequest): string {
  return JSON.stringify(request.body?.messages ?? []);
}

/** `1,234,567`, as the job's results write a number of bytes. */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Polls `ready` every 10 ms (at most 30 s: a job that never ends fails the test, not hangs it). */
async function until(what: string, ready: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch {
    return 0;
  }
}

async function assertReplays(t: TestSession): Promise<void> {
  const replayed = await replaySession(t.events());
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence, null, 2));
  assert.equal(replayed.matched, t.events().length);
}

Deno.test("a background `yes` keeps at most the cap of its output on disk, and its end, job_output and notification say how much was cut", async () => {
  const late: { t?: TestSession } = {};
  const written = 20_000_000;
  const script: FakeScriptFn = async (request) => {
    const done = toolResultCount(request.body);
    if (done === 0) {
      return message([toolUse("toolu_bg", "bash", {
        command: `yes | head -c ${written}`,
        description: "Say yes",
        run_in_background: true,
      })]);
    }
    if (done === 1) {
      const t = late.t as TestSession;
      await until("the job's end", () => eventsOf(t.events(), "job.finished").length > 0);
      const id = eventsOf(t.events(), "job.started")[0]?.data.id ?? "";
      return message([toolUse("toolu_out", "job_output", { job_id: id })]);
    }
    if (done === 2) return message([toolUse("toolu_fg", "bash", { command: "echo after" })]);
    return message("Done");
  };
  await using t = await startTestSession(script, WITH_JOBS);
  late.t = t;
  const result = await t.session.prompt("Say yes a lot", run());
  assert.equal(result.reason, "completed");
  const events = t.events();
  const [started] = eventsOf(events, "job.started");
  const [end] = eventsOf(events, "job.finished");
  assert.ok(started && end);
  assert.equal(end.data.ending, "exited");
  assert.equal(end.data.outputBytes, written);

  // On disk: at most the cap, its head and its tail, with the bytes cut between them.
  const log = join(t.workspace, started.data.logPath);
  const kept = await Deno.readTextFile(log);
  assert.ok((await Deno.stat(log)).size <= DEFAULT_CAP, `the log holds ${kept.length} bytes`);
  const dropped = end.data.droppedBytes ?? 0;
  assert.ok(dropped >= written - DEFAULT_CAP, `only ${dropped} bytes were cut`);
  assert.ok(kept.startsWith("y\ny\ny\n"));
  assert.ok(kept.endsWith("y\ny\n"));
  assert.ok(kept.includes(`\n[… ${grouped(dropped)} bytes cut …]\n`));
  assert.equal(kept.replaceAll(/\[… [\d,]+ bytes cut …\]\n/g, "").length + dropped, written);

  // The model is told: by job_output, and by the notification of the job's end.
  const output = eventsOf(events, "tool.completed").find((e) => e.data.callId === "toolu_out");
  assert.equal(output?.data.isError, false);
  const cut = `It wrote 19 MiB (20,000,000 bytes) of output; its log keeps at most 4 MiB, its ` +
    `first and last part: ${grouped(dropped)} bytes were cut between them`;
  assert.ok(output?.data.content.includes(`<output_cut>${cut}</output_cut>`), output?.data.content);
  const told = t.fake.requests.map(conversationText).find((text) =>
    text.includes("<task-notification>")
  );
  assert.ok(told?.includes(`<output-cut>${cut}</output-cut>`), told ?? "");
  assert.ok(told?.includes("Read what its log kept (the first and last part)"));
  await assertReplays(t);
  await t.session.end("other", new AbortController().signal);
});

Deno.test("a job whose output fits the cap is kept whole, and its end says nothing was cut", async () => {
  const script: FakeScriptFn = (request) =>
    toolResultCount(request.body) === 0
      ? message([toolUse("toolu_bg", "bash", {
        command: "seq 1 200000",
        run_in_background: true,
      })])
      : message("Started");
  await using t = await startTestSession(script, WITH_JOBS);
  await t.session.prompt("Count", run());
  const expected = Array.from({ length: 200_000 }, (_, i) => `${i + 1}\n`).join("");
  await until("the job's end", () => eventsOf(t.events(), "job.finished").length > 0);
  const [started] = eventsOf(t.events(), "job.started");
  const [end] = eventsOf(t.events(), "job.finished");
  assert.equal(started?.data.outputMaxBytes, DEFAULT_CAP);
  assert.deepEqual([end?.data.ending, end?.data.exitCode], ["exited", 0]);
  assert.equal(end?.data.outputBytes, expected.length);
  assert.equal(end?.data.droppedBytes, 0);
  assert.equal(await Deno.readTextFile(join(t.workspace, started?.data.logPath ?? "")), expected);
  await t.session.prompt("Well?", run());
  const told = t.fake.requests.map(conversationText).find((text) =>
    text.includes("<task-notification>")
  );
  assert.ok(told?.includes("Read the whole output with job_output or read_file"), told ?? "");
  assert.ok(!told?.includes("output-cut"));
  await assertReplays(t);
  await t.session.end("other", new AbortController().signal);
});

/** A headless `rein agent -p` in a temp workspace against a fake model, its log and processes. */
class Headless implements AsyncDisposable {
  readonly #agents: CliProcess[] = [];

  private constructor(readonly workspace: string, readonly fake: FakeAnthropic) {}

  static async open(script: FakeScriptFn): Promise<Headless> {
    const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein_job_limits_" }));
    return new Headless(workspace, await startFakeAnthropic({ script }));
  }

  get logPath(): string {
    return join(this.workspace, ".rein", "events.jsonl");
  }

  agent(prompt: string, env: Record<string, string>): CliProcess {
    const agent = new CliProcess(
      ["agent", "-p", prompt, "--allowedTools", "Bash", "--workspace", this.workspace],
      { ANTHROPIC_BASE_URL: this.fake.url, ANTHROPIC_API_KEY: "sk-fake-job-limits", ...env },
    );
    this.#agents.push(agent);
    return agent;
  }

  async events(): Promise<Envelope[]> {
    const text = await Deno.readTextFile(this.logPath).catch(() => "");
    return text.split("\n").slice(0, -1).map((line) => JSON.parse(line) as Envelope);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all(this.#agents.map((agent) => agent.kill()));
    killProcessesIn(this.workspace);
    await this.fake.close();
    await Deno.remove(this.workspace, { recursive: true });
  }
}

Deno.test("headless, in the sandbox: `yes` with a 3 s timeout is stopped by its timeout, its log never past REIN_JOB_OUTPUT_MAX_BYTES, and the log replays", async () => {
  const cap = 1024 * 1024;
  const late: { rig?: Headless } = {};
  let largest = 0;
  const script: FakeScriptFn = async (request) => {
    const done = toolResultCount(request.body);
    if (done === 0) {
      return message([toolUse("toolu_bg", "bash", {
        command: "yes",
        timeout: 3000,
        run_in_background: true,
      })]);
    }
    if (done === 1) {
      // While it runs, its log is measured again and again: it never holds more than the cap.
      const rig = late.rig as Headless;
      await until("the job's end", async () => {
        const events = await rig.events();
        const started = eventsOf(events, "job.started")[0];
        if (started) {
          largest = Math.max(largest, await sizeOf(join(rig.workspace, started.data.logPath)));
        }
        return eventsOf(events, "job.finished").length > 0;
      });
      return message([toolUse("toolu_fg", "bash", { command: "echo after" })]);
    }
    return message(
      /timed out after 3\.0s and was killed/.test(JSON.stringify(request.body?.messages))
        ? "Told it timed out"
        : "Not told",
    );
  };
  await using rig = await Headless.open(script);
  late.rig = rig;
  const out = await rig.agent("Say yes until stopped", {
    REIN_JOB_OUTPUT_MAX_BYTES: String(cap),
  }).output;
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout.trim(), "Told it timed out");
  const events = await rig.events();
  const [started] = eventsOf(events, "job.started");
  const [end] = eventsOf(events, "job.finished");
  assert.ok(started && end);
  assert.equal(end.data.ending, "timed_out");
  assert.equal(end.data.exitCode, null);
  assert.ok(await waitForDeath(started.data.pid));
  const log = join(rig.workspace, started.data.logPath);
  assert.ok(largest > 0 && largest <= cap, `the log held ${largest} bytes while the job ran`);
  assert.ok((await sizeOf(log)) <= cap, `the log holds ${await sizeOf(log)} bytes`);
  assert.equal(started.data.outputMaxBytes, cap);
  assert.ok(end.data.outputBytes > cap);
  assert.ok((end.data.droppedBytes ?? 0) >= end.data.outputBytes - cap);
  assert.match(out.stderr, new RegExp(`Job ${end.data.id} ended: timed out`));
  const replay = await runCli(["replay", rig.logPath, "--verify", "--quiet"]);
  assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
});
