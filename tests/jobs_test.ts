/**
 * Background jobs (s13) with real processes: bash's run_in_background, the job's end arriving
 * from outside the loop and reaching the model as a <task-notification> in its next request (as
 * the fake model server receives it), job_output and job_stop, timeouts, the session's end, a
 * `kill -9` of rein while a job runs (resumed: the job is reported lost, nothing runs twice),
 * and replay --verify of each.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope, EnvelopeOf, EventType } from "../events/event_types.ts";
import type { EventStore } from "../events/store.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import {
  type FakeAnthropic,
  type FakeScriptFn,
  message,
  type RecordedRequest,
  startFakeAnthropic,
  text,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { lastUserText, toolResultCount } from "../testing/scenarios.ts";
import { startTestSession, type TestSession } from "../testing/test_session.ts";
import { isAlive, killProcessesIn, processesIn, waitForDeath } from "../testing/tool_helpers.ts";
import { CLI, runCli } from "./_cli.ts";
import { type Screen, shellQuote, Terminal } from "./_tmux.ts";
import { CliProcess } from "./_cli_process.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

/** Recorded with job settings and Bash allowed, as the CLI records a session. */
const WITH_JOBS = {
  recordSettings: { settings: { permissions: { allow: ["Bash"] } }, jobs: { timeoutMs: 60_000 } },
};

/** Resolves once the log has an event of `type` that `matches`. */
function untilEvent<T extends EventType>(
  store: EventStore,
  events: () => readonly Envelope[],
  type: T,
  matches: (event: EnvelopeOf<T>) => boolean = () => true,
): Promise<EnvelopeOf<T>> {
  const found = () =>
    events().find((event): event is EnvelopeOf<T> =>
      event.type === type && matches(event as EnvelopeOf<T>)
    );
  const now = found();
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const stop = store.subscribe(() => {
      const event = found();
      if (!event) return;
      stop();
      resolve(event);
    });
  });
}

function eventsOf<T extends EventType>(events: readonly Envelope[], type: T): EnvelopeOf<T>[] {
  return events.filter((event): event is EnvelopeOf<T> => event.type === type);
}

/** The text of every block of a request's last message. */
function lastMessageText(request: RecordedRequest | undefined): string {
  const last = request?.body?.messages.at(-1);
  if (!last) return "";
  if (typeof last.content === "string") return last.content;
  return last.content.map((block) =>
    block.type === "text"
      ? String(block.text)
      : block.type === "tool_result"
      ? JSON.stringify(block.content)
      : ""
  ).join("\n");
}

/** The job id a bash result announced in `request`'s conversation. */
function announcedJob(request: RecordedRequest): string {
  const found = JSON.stringify(request.body?.messages ?? []).match(/with ID: (b[0-9a-f]{8})/);
  assert.ok(found, "no job was announced");
  return found[1] as string;
}

async function assertReplays(t: TestSession): Promise<void> {
  const replayed = await replaySession(t.events());
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence, null, 2));
  assert.equal(replayed.matched, t.events().length);
}

Deno.test("a job that ends while the model works reaches it in the next request as a <task-notification>", async () => {
  const late: { t?: TestSession } = {};
  const script: FakeScriptFn = async (request) => {
    const done = toolResultCount(request.body);
    if (done === 0) {
      return message([
        text("Starting the job"),
        toolUse("toolu_bg", "bash", {
          // It ends once this test says so: while the next request is answered.
          command: "while [ ! -f go ]; do sleep 0.01; done; echo job-done",
          description: "Wait, then say done",
          run_in_background: true,
        }),
      ]);
    }
    if (done === 1) {
      // The job ends while this request is answered: it is in the log before the answer.
      const session = late.t as TestSession;
      await Deno.writeTextFile(join(session.workspace, "go"), "");
      await untilEvent(session.store, session.events, "job.finished");
      return message([toolUse("toolu_fg", "bash", { command: "echo working" })]);
    }
    return message("All done");
  };
  await using session = await startTestSession(script, WITH_JOBS);
  late.t = session;
  const result = await session.session.prompt("Run the job and keep working", run());
  assert.equal(result.reason, "completed");

  const [first, second, third] = session.fake.requests;
  const id = announcedJob(second as RecordedRequest);
  assert.doesNotMatch(lastMessageText(second), /task-notification/);
  const notified = lastMessageText(third);
  assert.match(notified, new RegExp(`<task-id>${id}</task-id>`));
  assert.match(notified, /<tool-use-id>toolu_bg<\/tool-use-id>/);
  assert.match(notified, /<status>completed<\/status>/);
  assert.match(notified, /Background command "Wait, then say done" completed \(exit code 0\)/);
  assert.match(notified, /<output-tail>\njob-done\n<\/output-tail>/);
  assert.ok(first?.body?.tools?.some((tool) => tool.name === "job_output"));

  const events = session.events();
  const types = events.map((event) => event.type);
  const finished = types.indexOf("job.finished");
  const injected = types.indexOf("arrival.injected");
  // Recorded during the second model call, injected just before the third request.
  assert.equal(types.lastIndexOf("model.requested", finished), types.indexOf("model.requested", 5));
  assert.ok(types.indexOf("model.responded", finished) > finished);
  assert.equal(types[injected + 1], "model.requested");
  assert.ok(injected > types.indexOf("tool.completed", finished));
  const end = eventsOf(events, "job.finished")[0];
  assert.equal(end?.agent, "lead");
  assert.deepEqual([end?.data.ending, end?.data.exitCode, end?.data.tail], [
    "exited",
    0,
    "job-done",
  ]);
  assert.equal(
    await Deno.readTextFile(join(session.workspace, ".rein/jobs", `${id}.log`)),
    "job-done\n",
  );
  await assertReplays(session);
  await session.session.end("other", new AbortController().signal);
});

Deno.test("a job that ends between turns reaches the model with the next prompt", async () => {
  const script: FakeScriptFn = (request) => {
    const last = lastUserText(request.body);
    if (last === "Start it") {
      return toolResultCount(request.body) === 0
        ? message([toolUse("toolu_bg", "bash", {
          command: "while [ ! -f go ]; do sleep 0.01; done; echo out",
          run_in_background: true,
        })])
        : message("Started");
    }
    return message(`Heard: ${last}`);
  };
  await using t = await startTestSession(script, WITH_JOBS);
  await t.session.prompt("Start it", run());
  assert.equal(t.session.conversation.status, "idle");
  await Deno.writeTextFile(join(t.workspace, "go"), "");
  const finished = await untilEvent(t.store, t.events, "job.finished");
  await t.session.prompt("How did it go?", run());
  const asked = lastMessageText(t.fake.requests.at(-1));
  assert.match(asked, /^How did it go\?\n<task-notification>\n/);
  assert.match(asked, new RegExp(`<task-id>${finished.data.id}</task-id>`));
  const events = t.events();
  const injected = eventsOf(events, "arrival.injected");
  assert.deepEqual(injected.map((e) => [e.data.source, e.data.key, e.data.seq]), [
    ["jobs", finished.data.id, finished.seq],
  ]);
  // Delivered once: the turn after it has nothing new to inject.
  await t.session.prompt("And now?", run());
  assert.doesNotMatch(lastMessageText(t.fake.requests.at(-1)), /task-notification/);
  assert.equal(eventsOf(t.events(), "arrival.injected").length, 1);
  await assertReplays(t);
  // `rein state` of the log lists the session's jobs with their outcome and output file.
  const log = join(t.workspace, "copy.jsonl");
  await Deno.writeTextFile(log, t.events().map((e) => `${JSON.stringify(e)}\n`).join(""));
  const state = await runCli(["state", log]);
  assert.equal(state.code, 0, state.stderr);
  assert.match(
    state.stdout,
    new RegExp(`  jobs\n    ${finished.data.id}  completed exit 0, .*while \\[ ! -f go \\]`),
  );
  await t.session.end("other", new AbortController().signal);
});

Deno.test("job_output reads a running job's output so far, job_stop kills it and no notification follows", async () => {
  const late: { t?: TestSession } = {};
  const script: FakeScriptFn = async (request) => {
    const done = toolResultCount(request.body);
    if (done === 0) {
      return message([toolUse("toolu_bg", "bash", {
        command: "echo started; (sleep 30 &); sleep 30; echo LEAKED",
        run_in_background: true,
      })]);
    }
    const id = announcedJob(request);
    if (done === 1) {
      // Read once it has written something: the output so far, not its end.
      const log = join((late.t as TestSession).workspace, ".rein/jobs", `${id}.log`);
      while (!(await Deno.readTextFile(log)).includes("started")) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return message([toolUse("toolu_out", "job_output", { job_id: id, block: false })]);
    }
    if (done === 2) return message([toolUse("toolu_stop", "job_stop", { job_id: id })]);
    if (done === 3) return message([toolUse("toolu_again", "job_stop", { job_id: id })]);
    return message("Stopped it");
  };
  await using session = await startTestSession(script, WITH_JOBS);
  late.t = session;
  await session.session.prompt("Start a long job, look at it, stop it", run());
  const events = session.events();
  const results = eventsOf(events, "tool.completed");
  const output = results.find((e) => e.data.callId === "toolu_out")?.data;
  assert.equal(output?.isError, false);
  assert.match(output?.content ?? "", /<retrieval_status>not_ready<\/retrieval_status>/);
  assert.match(output?.content ?? "", /<status>running<\/status>/);
  assert.match(output?.content ?? "", /<output>\nstarted\n<\/output>/);
  const stopped = results.find((e) => e.data.callId === "toolu_stop")?.data;
  assert.equal(stopped?.isError, false);
  assert.match(stopped?.content ?? "", /was stopped after/);
  const again = results.find((e) => e.data.callId === "toolu_again")?.data;
  assert.equal(again?.isError, true);
  assert.match(again?.content ?? "", /is not running: Background command .* was stopped/);
  const [started] = eventsOf(events, "job.started");
  const [end] = eventsOf(events, "job.finished");
  assert.equal(end?.data.ending, "stopped");
  assert.ok(end && end.seq < (results.find((e) => e.data.callId === "toolu_stop")?.seq ?? 0));
  assert.ok(await waitForDeath(started?.data.pid ?? 0), "the job's process survived its stop");
  assert.deepEqual(eventsOf(events, "arrival.injected"), []);
  assert.ok(session.fake.requests.every((r) => !lastMessageText(r).includes("task-notification")));
  assert.doesNotMatch(
    await Deno.readTextFile(join(session.workspace, started?.data.logPath ?? "")),
    /LEAKED/,
  );
  await assertReplays(session);
  await session.session.end("other", new AbortController().signal);
});

Deno.test("a job past its timeout is killed and the model is told it timed out", async () => {
  const script: FakeScriptFn = (request) =>
    lastUserText(request.body) === "Start it" && toolResultCount(request.body) === 0
      ? message([
        toolUse("toolu_bg", "bash", { command: "sleep 30", timeout: 200, run_in_background: true }),
      ])
      : message("ok");
  await using t = await startTestSession(script, WITH_JOBS);
  await t.session.prompt("Start it", run());
  const started = await untilEvent(t.store, t.events, "job.started");
  assert.equal(started.data.timeoutMs, 200);
  const end = await untilEvent(t.store, t.events, "job.finished");
  assert.equal(end.data.ending, "timed_out");
  assert.equal(end.data.exitCode, null);
  assert.ok(await waitForDeath(started.data.pid));
  await t.session.prompt("Well?", run());
  // The first request after its end has it, whichever turn that was in.
  const told = t.fake.requests.map(lastMessageText).filter((text) =>
    /task-notification/.test(text)
  );
  assert.equal(told.length, 1);
  assert.match(told[0] ?? "", /<status>killed<\/status>/);
  assert.match(told[0] ?? "", /Background command "sleep 30" timed out after 200ms and was killed/);
  await assertReplays(t);
  await t.session.end("other", new AbortController().signal);
});

Deno.test("a session's running jobs are stopped, and their ends recorded, before it ends", async () => {
  const script: FakeScriptFn = (request) =>
    toolResultCount(request.body) === 0
      ? message([
        toolUse("toolu_a", "bash", { command: "sleep 30", run_in_background: true }),
        toolUse("toolu_b", "bash", { command: "sleep 31", run_in_background: true }),
      ])
      : message("Both started");
  await using t = await startTestSession(script, WITH_JOBS);
  await t.session.prompt("Start two", run());
  const pids = eventsOf(t.events(), "job.started").map((e) => e.data.pid);
  assert.equal(pids.length, 2);
  for (const pid of pids) assert.ok(await isAlive(pid));
  await t.session.end("prompt_input_exit", new AbortController().signal);
  const types = t.events().map((e) => e.type);
  assert.deepEqual(types.slice(-3), ["job.finished", "job.finished", "session.ended"]);
  const ends = eventsOf(t.events(), "job.finished").map((e) => e.data.ending);
  assert.deepEqual(ends, ["session_ended", "session_ended"]);
  for (const pid of pids) assert.ok(await waitForDeath(pid));
  await assertReplays(t);
});

Deno.test("jobs ending at any moment of a busy turn replay with their notifications in place", async () => {
  // Five jobs of random lengths end while the model answers, while calls run and between the
  // two: wherever each lands, replay must inject it at the same place.
  const delays = Array.from({ length: 5 }, (_, i) => ((i * 37) % 11) / 100);
  const script: FakeScriptFn = async (request) => {
    const done = toolResultCount(request.body);
    if (done === 0) {
      return message(delays.map((delay, i) =>
        toolUse(`toolu_bg${i}`, "bash", {
          command: `sleep ${delay}; echo job-${i}`,
          run_in_background: true,
        })
      ));
    }
    if (done < 5 + 6) {
      await new Promise((resolve) => setTimeout(resolve, 15));
      return message([toolUse(`toolu_fg${done}`, "bash", { command: "sleep 0.02; echo fg" })]);
    }
    return message("done");
  };
  await using t = await startTestSession(script, WITH_JOBS);
  await t.session.prompt("Many jobs", run());
  const events = t.events();
  assert.equal(eventsOf(events, "job.finished").length, 5);
  assert.equal(eventsOf(events, "arrival.injected").length, 5);
  // Each notification is in the first request recorded after its job's end.
  for (const end of eventsOf(events, "job.finished")) {
    const request = events.find((e) => e.seq > end.seq && e.type === "model.requested");
    const injected = eventsOf(events, "arrival.injected").find((e) => e.data.key === end.data.id);
    assert.ok(injected && request && injected.seq < request.seq);
    assert.ok(
      !events.some((e) => e.type === "model.requested" && e.seq > end.seq && e.seq < injected.seq),
    );
  }
  await assertReplays(t);
  await t.session.end("other", new AbortController().signal);
});

/** A workspace and a fake model that outlive the rein processes run against them. */
class CliRig implements AsyncDisposable {
  readonly #agents: CliProcess[] = [];

  private constructor(readonly workspace: string, readonly fake: FakeAnthropic) {}

  static async open(script: FakeScriptFn): Promise<CliRig> {
    const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein_jobs_" }));
    return new CliRig(workspace, await startFakeAnthropic({ script }));
  }

  get logPath(): string {
    return join(this.workspace, ".rein", "events.jsonl");
  }

  /** `rein agent -p PROMPT` (or `--continue -p` without one), Bash allowed. */
  agent(prompt?: string): CliProcess {
    const agent = new CliProcess([
      "agent",
      ...(prompt === undefined ? ["--continue", "-p"] : ["-p", prompt]),
      "--allowedTools",
      "Bash",
      "--workspace",
      this.workspace,
    ], { ANTHROPIC_BASE_URL: this.fake.url, ANTHROPIC_API_KEY: "sk-fake-jobs-test" });
    this.#agents.push(agent);
    return agent;
  }

  async events(): Promise<Envelope[]> {
    const text = await Deno.readTextFile(this.logPath).catch(() => "");
    return text.split("\n").slice(0, -1).map((line) => JSON.parse(line) as Envelope);
  }

  async until(what: string, ready: () => Promise<boolean>, agent?: CliProcess): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await ready())) {
      if (agent && !agent.running) {
        throw new Error(`rein exited before ${what}: ${(await agent.output).stderr}`);
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all(this.#agents.map((agent) => agent.kill()));
    killProcessesIn(this.workspace);
    await this.fake.close();
    await Deno.remove(this.workspace, { recursive: true });
  }
}

async function replayVerifies(logPath: string): Promise<void> {
  const replay = await runCli(["replay", logPath, "--verify", "--quiet"]);
  assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
}

Deno.test("headless: a job in the sandbox ends during the turn, cannot write rein's directory, and the log replays", async () => {
  const late: { rig?: CliRig } = {};
  const script: FakeScriptFn = async (request) => {
    const done = toolResultCount(request.body);
    if (done === 0) {
      return message([toolUse("toolu_bg", "bash", {
        command: "while [ ! -f go ]; do sleep 0.01; done; " +
          "touch .rein/escaped 2>/dev/null || echo confined; echo made > made.txt",
        run_in_background: true,
      })]);
    }
    if (done === 1) {
      await Deno.writeTextFile(join((late.rig as CliRig).workspace, "go"), "");
      const events = () => (late.rig as CliRig).events();
      await (late.rig as CliRig).until(
        "the job's end",
        async () => (await events()).some((e) => e.type === "job.finished"),
      );
      return message([toolUse("toolu_fg", "bash", { command: "cat made.txt" })]);
    }
    return message(/task-notification/.test(lastMessageText(request)) ? "Notified" : "Not told");
  };
  await using cli = await CliRig.open(script);
  late.rig = cli;
  const out = await cli.agent("Run a job").output;
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout.trim(), "Notified");
  const events = await cli.events();
  const [end] = eventsOf(events, "job.finished");
  assert.equal(end?.data.tail, "confined");
  assert.match(out.stderr, new RegExp(`Job ${end?.data.id} ended: exit code 0`));
  await assert.rejects(Deno.lstat(join(cli.workspace, ".rein/escaped")));
  await replayVerifies(cli.logPath);
});

Deno.test("headless: -p waits for a job its turn left running, says so, and answers with the job's output", async () => {
  const script: FakeScriptFn = (request) => {
    const done = toolResultCount(request.body);
    const last = lastMessageText(request);
    if (last.includes("<task-notification>")) {
      const printed = /job says (\w+)/.exec(last)?.[1] ?? "nothing";
      return message(`The job printed ${printed}`);
    }
    if (done === 0) {
      return message([toolUse("toolu_bg", "bash", {
        command: "sleep 0.5; echo job says hello",
        description: "Say hello later",
        run_in_background: true,
      })]);
    }
    return message("Started it; I will report when it ends.");
  };
  await using cli = await CliRig.open(script);
  const out = await cli.agent("Run a job").output;
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout.trim(), "The job printed hello");
  assert.match(out.stderr, /Waiting for background job b[0-9a-f]{8} \(Say hello later\)…/);
  assert.equal(cli.fake.requests.length, 3);
  await replayVerifies(cli.logPath);
});

Deno.test("crash: kill -9 while a job runs; the resume reports it lost, runs nothing twice, and replays", async () => {
  const command = "echo started >> out.txt; sleep 30; echo LEAKED >> out.txt";
  let slow = true;
  const script: FakeScriptFn = (request) => {
    const done = toolResultCount(request.body);
    if (done === 0) {
      return message([toolUse("toolu_bg", "bash", { command, run_in_background: true })]);
    }
    const last = lastMessageText(request);
    if (/<status>lost<\/status>/.test(last)) return message("The job was lost");
    // The answer to the job's start streams slowly the first time: rein is killed meanwhile.
    if (slow) return message("Waiting for the job", { chunkDelayMs: 1_000 });
    return message("Nothing about the job");
  };
  await using cli = await CliRig.open(script);
  const agent = cli.agent("Start a long job");
  await cli.until("the job to run", async () => {
    const started = (await cli.events()).some((e) => e.type === "job.started");
    const out = await Deno.readTextFile(join(cli.workspace, "out.txt")).catch(() => "");
    return started && out.includes("started") && cli.fake.requests.length === 2;
  }, agent);
  assert.equal((await agent.kill()).signal, "SIGKILL");
  const atKill = await cli.events();
  const [started] = eventsOf(atKill, "job.started");
  assert.ok(started);
  assert.deepEqual(eventsOf(atKill, "job.finished"), []);
  // The job died with rein: its sandbox goes with the process that ran it.
  await cli.until(
    "the job's processes to die",
    () => Promise.resolve(processesIn(cli.workspace).length === 0),
  );

  slow = false;
  const resumed = await cli.agent().output;
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.stdout.trim(), "The job was lost");
  assert.match(resumed.stderr, new RegExp(`Job ${started.data.id} lost: outcome unknown`));
  assert.match(
    resumed.stderr,
    new RegExp(`pid ${started.data.pid}, log \\.rein/jobs/${started.data.id}\\.log`),
  );
  const events = await cli.events();
  assert.deepEqual(events.slice(0, atKill.length), atKill, "the resume changed the logged past");
  const [lost] = eventsOf(events, "job.lost");
  assert.deepEqual(lost?.data, {
    id: started.data.id,
    pid: started.data.pid,
    logPath: started.data.logPath,
  });
  assert.equal(events[events.indexOf(lost as Envelope) - 1]?.type, "session.resumed");
  // Nothing ran twice: one start of the job, one bash call, and the job never restarted.
  assert.equal(eventsOf(events, "job.started").length, 1);
  assert.deepEqual(eventsOf(events, "tool.requested").map((e) => e.data.callId), ["toolu_bg"]);
  assert.equal(await Deno.readTextFile(join(cli.workspace, "out.txt")), "started\n");
  const asked = lastMessageText(cli.fake.requests.at(-1));
  assert.match(asked, /<status>lost<\/status>/);
  assert.match(asked, /was lost: it ran in a rein process that ended before it did/);
  await replayVerifies(cli.logPath);
});

Deno.test("job_stop in the sandbox kills even the processes that left the job's process group", async () => {
  const late: { rig?: CliRig } = {};
  const script: FakeScriptFn = async (request) => {
    const done = toolResultCount(request.body);
    if (done === 0) {
      return message([toolUse("toolu_bg", "bash", {
        command: "(setsid sleep 30 &); setsid sh -c 'sleep 31' & echo started; sleep 32",
        run_in_background: true,
      })]);
    }
    if (done === 1) {
      const cli = late.rig as CliRig;
      await cli.until(
        "the job's processes",
        () =>
          Promise.resolve(
            processesIn(cli.workspace).filter((p) => /^sleep 3[012]$/.test(p.command)).length === 3,
          ),
      );
      return message([toolUse("toolu_stop", "job_stop", { job_id: announcedJob(request) })]);
    }
    return message("Stopped");
  };
  await using cli = await CliRig.open(script);
  late.rig = cli;
  const out = await cli.agent("Start and stop").output;
  assert.equal(out.code, 0, out.stderr);
  const [end] = eventsOf(await cli.events(), "job.finished");
  assert.equal(end?.data.ending, "stopped");
  await cli.until(
    "every process of the job to end",
    () => Promise.resolve(processesIn(cli.workspace).length === 0),
  );
  await replayVerifies(cli.logPath);
});

Deno.test("a job that ends while the person is at the prompt wakes the agent: a turn takes up its notification, and /jobs lists it", async () => {
  const script: FakeScriptFn = (request) => {
    const prompt = lastUserText(request.body);
    if (prompt === "start a job") {
      return toolResultCount(request.body) === 0
        ? message([toolUse("toolu_bg", "bash", {
          command: "while [ ! -f go ]; do sleep 0.05; done; echo job-finished",
          description: "Wait for go",
          run_in_background: true,
        })])
        : message("Started.");
    }
    if (prompt.includes("<task-notification>")) return message("The job is done.");
    return message(`You said: ${prompt.split("\n")[0]}`);
  };
  await using fake = await startFakeAnthropic({ script });
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-jobs-repl-" }));
  const workspace = join(dir, "ws");
  await Deno.mkdir(workspace);
  const command = [
    `ANTHROPIC_BASE_URL=${shellQuote(fake.url)} ANTHROPIC_API_KEY=test-key`,
    `${shellQuote(Deno.execPath())} run -A ${shellQuote(CLI)} agent --allowedTools Bash`,
    `--workspace ${shellQuote(workspace)}; echo $? > ${shellQuote(join(dir, "exit"))}`,
  ].join(" ");
  await using terminal = await Terminal.start(`sh -c ${shellQuote(command)}`);
  try {
    const atPrompt = (typed: string) => (screen: Screen) =>
      screen.cursorLine === `> ${typed}`.trimEnd() && screen.cursorX === 2 + typed.length;
    await terminal.waitFor("the prompt", atPrompt(""));
    await terminal.type("start a job");
    await terminal.press("Enter");
    await terminal.waitFor("the answer", (s) => atPrompt("")(s) && s.text.includes("Started."));
    await Deno.writeTextFile(join(workspace, "go"), "");
    // The job's end is shown, and the idle agent runs a turn on its notification.
    const woken = await terminal.waitFor(
      "the turn the job's end starts",
      (s) => s.text.includes("The job is done.") && atPrompt("")(s),
    );
    assert.match(woken.text, /⏺ Job b[0-9a-f]{8} ended: exit code 0/);
    assert.match(woken.text, /> \(woken by jobs b[0-9a-f]{8}\)/);
    assert.match(lastMessageText(fake.requests.at(-1)), /<status>completed<\/status>/);
    await terminal.type("/jobs");
    await terminal.press("Enter");
    const listed = await terminal.waitFor("the job list", (s) => /completed/.test(s.text));
    assert.match(
      listed.text,
      /b[0-9a-f]{8} {2}completed exit 0, \S+ +Wait for go {2}\.rein\/jobs\//,
    );
    await terminal.waitFor("the prompt after /jobs", atPrompt(""));
    await terminal.type("anything new?");
    await terminal.press("Enter");
    await terminal.waitFor("the answer", (s) => s.text.includes("You said: anything new?"));
    // Told once: the next prompt does not carry the notification again.
    assert.doesNotMatch(lastMessageText(fake.requests.at(-1)), /task-notification/);
    await terminal.press("C-d");
    const deadline = Date.now() + 10_000;
    while (!(await Deno.readTextFile(join(dir, "exit")).catch(() => "")).endsWith("\n")) {
      if (Date.now() > deadline) throw new Error("rein did not exit");
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    await replayVerifies(join(workspace, ".rein", "events.jsonl"));
  } finally {
    await terminal.close();
    await Deno.remove(dir, { recursive: true });
  }
});
