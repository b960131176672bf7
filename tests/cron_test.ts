import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import {
  type FakeAnthropic,
  type FakeScriptFn,
  message,
  type RecordedRequest,
  startFakeAnthropic,
  text,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { cliEntry, runCli } from "./_cli.ts";
import { lastUserText } from "../testing/scenarios.ts";
import { startTestSession, type TestSession } from "../testing/test_session.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { CronScheduler } from "../core/cron/cron_scheduler.ts";
import { cronTableOf } from "../core/cron/cron_read.ts";
import { scheduledText } from "../core/cron/scheduled_text.ts";
import { reinToolNames } from "../core/agents/child_tools.ts";
import { hookMatchNames, toClaudeCall } from "../core/hooks/claude_tool_names.ts";
import { suggestRule } from "../core/permissions/judge.ts";
import { parseRule } from "../core/permissions/rule.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

/** Schedules "check the deploy" every minute when asked, answers scheduled prompts. */
const script: FakeScriptFn = (request) => {
  const last = lastUserText(request.body);
  const results = JSON.stringify(request.body?.messages.at(-1)?.content ?? "");
  if (last.startsWith("remind me") && !results.includes("tool_result")) {
    return message([
      text("Scheduling it."),
      toolUse("call_1", "schedule_cron", { cron: "* * * * *", prompt: "check the deploy" }),
    ]);
  }
  if (last.startsWith("list") && !results.includes("tool_result")) {
    return message([toolUse("call_2", "list_crons", {})]);
  }
  return message(`Done: ${last}`);
};

/** A session recorded as the CLI records one, on a clock the test moves. */
async function cronSession(clock: { now: Date }): Promise<TestSession> {
  return await startTestSession(script, { recordSettings: {}, clock: () => clock.now });
}

function schedulerOf(t: TestSession, clock: { now: Date }) {
  return new CronScheduler({
    store: t.harness.store,
    state: t.harness.state,
    clock: () => clock.now,
    session: () => ({ session: t.session.id, agent: t.session.agent }),
  });
}

const types = (events: readonly Envelope[]) => events.map((event) => event.type);

Deno.test("schedule_cron records its reading before the intent and its job with the result", async () => {
  const clock = { now: new Date("2026-11-23T10:00:30Z") };
  await using t = await cronSession(clock);
  await t.session.prompt("remind me every minute to check the deploy", run());
  const events = t.events();
  const read = events.findIndex((e) => e.type === "cron.read");
  assert.deepEqual(types(events.slice(read, read + 5)), [
    "cron.read",
    "permission.decided",
    "tool.requested",
    "cron.scheduled",
    "tool.completed",
  ]);
  const reading = events[read];
  assert.deepEqual(reading?.type === "cron.read" && reading.data, {
    callId: "call_1",
    now: "2026-11-23T10:00:30.000Z",
    timeZone: reading?.type === "cron.read" ? reading.data.timeZone : "",
    jobs: [],
  });
  const job = Object.values(cronTableOf(t.harness.state).jobs)[0];
  assert.equal(job?.scheduledAt, "2026-11-23T10:00:30.000Z");
  assert.equal(job?.session, t.session.id);
  const result = await replaySession(t.events());
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
  // `rein state` of the log ends with the workspace's cron jobs.
  const log = join(t.workspace, "copy.jsonl");
  await Deno.writeTextFile(log, t.events().map((e) => `${JSON.stringify(e)}\n`).join(""));
  const state = await runCli(["state", log]);
  assert.equal(state.code, 0, state.stderr);
  assert.match(state.stdout, new RegExp(`\ncron\n  ${job?.id}  "\\* \\* \\* \\* \\*" .*recurring`));
});

Deno.test("a firing while idle runs as a prompt of its own, once per minute, and replays", async () => {
  const clock = { now: new Date("2026-11-23T10:00:30Z") };
  await using t = await cronSession(clock);
  await t.session.prompt("remind me every minute to check the deploy", run());
  const scheduler = schedulerOf(t, clock);
  clock.now = new Date("2026-11-23T10:00:59.999Z");
  assert.deepEqual(await scheduler.tick(), []);
  for (const minute of ["10:01", "10:02"]) {
    clock.now = new Date(`2026-11-23T${minute}:00.500Z`);
    const [fired, ...more] = await scheduler.tick();
    assert.equal(more.length, 0);
    assert.equal(fired?.type === "cron.fired" && fired.data.minute, `2026-11-23T${minute}:00.000Z`);
    assert.deepEqual(await scheduler.tick(), [], "a minute fires once");
    const [firing] = scheduler.pending();
    assert.ok(firing);
    await t.session.prompt(scheduledText(firing), run());
    assert.deepEqual(scheduler.pending(), []);
  }
  const delivered = t.events().filter((e) =>
    e.type === "cron.delivered" || e.type === "user.prompted"
  );
  assert.deepEqual(delivered.map((e) => e.type === "user.prompted" ? e.data.text : e.type), [
    "remind me every minute to check the deploy",
    "cron.delivered",
    "[Scheduled] check the deploy",
    "cron.delivered",
    "[Scheduled] check the deploy",
  ]);
  assert.equal(t.session.lastText, "Done: [Scheduled] check the deploy");
  const result = await replaySession(t.events());
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
  assert.equal(result.matched, t.events().length);
});

Deno.test("a firing during a turn joins its next request, and replays at its place", async () => {
  const clock = { now: new Date("2026-11-23T10:00:30Z") };
  const waiting: FakeScriptFn = (request, index) => {
    const last = lastUserText(request.body);
    const results = JSON.stringify(request.body?.messages.at(-1)?.content ?? "");
    if (last === "wait for the go file" && !results.includes("tool_result")) {
      return message([
        toolUse("call_wait", "bash", { command: "while [ ! -f go ]; do sleep 0.02; done" }),
      ]);
    }
    return script(request, index);
  };
  await using t = await startTestSession(waiting, {
    recordSettings: { settings: { permissions: { allow: ["Bash"] } } },
    clock: () => clock.now,
  });
  await t.session.prompt("remind me every minute to check the deploy", run());
  const scheduler = schedulerOf(t, clock);
  const turn = t.session.prompt("wait for the go file", run());
  while (!t.events().some((e) => e.type === "tool.requested" && e.data.name === "bash")) {
    assert.ok(!t.events().some((e) => e.type === "turn.ended" && e.data.rounds > 2), "bash ran");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  clock.now = new Date("2026-11-23T10:01:00Z");
  assert.equal((await scheduler.tick()).length, 1, "it fires while the call runs");
  await Deno.writeTextFile(join(t.workspace, "go"), "");
  await turn;
  const events = t.events();
  const order = types(events).filter((type) =>
    ["tool.requested", "cron.fired", "tool.completed", "arrival.injected", "model.requested"]
      .includes(type)
  ).slice(-5);
  assert.deepEqual(order, [
    "tool.requested",
    "cron.fired",
    "tool.completed",
    "arrival.injected",
    "model.requested",
  ]);
  assert.match(
    JSON.stringify(t.fake.requests.at(-1)?.body?.messages.at(-1)),
    /\[Scheduled\] check the deploy/,
  );
  assert.deepEqual(scheduler.pending(), [], "taken up once, not again as a prompt");
  const result = await replaySession(events);
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
  assert.equal(result.matched, events.length);
});

Deno.test("list_crons lists what the session sees, and replays", async () => {
  const clock = { now: new Date("2026-11-23T10:00:30Z") };
  await using t = await cronSession(clock);
  await t.session.prompt("remind me every minute to check the deploy", run());
  clock.now = new Date("2026-11-23T10:03:10Z");
  await t.session.prompt("list them", run());
  const listed = t.events().findLast((e) => e.type === "tool.completed");
  assert.match(
    listed?.type === "tool.completed" ? listed.data.content : "",
    /^1 cron job \(now 2026-11-23T10:03:10.000Z\):\n- [0-9a-f]{8}: "\* \* \* \* \*" .* next run at 2026-11-23T10:04:00.000Z$/,
  );
  const result = await replaySession(t.events());
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
});

/** The tool names of the `index`-th request the fake server received. */
function toolNames(t: TestSession, index: number): string[] {
  return t.fake.requests[index]?.body?.tools?.map((tool) => tool.name) ?? [];
}

Deno.test("a session recorded with settings by a rein before cron gets no cron tools, firings or readings", async () => {
  const clock = { now: new Date("2026-11-23T10:00:30Z") };
  await using t = await startTestSession(script, {
    recordSettings: { cronTools: false },
    clock: () => clock.now,
  });
  // A durable job of the workspace, scheduled by a newer session: it fires in any session with cron.
  await t.harness.store.append([{
    type: "cron.scheduled",
    data: {
      id: "0a0b0c0d",
      cron: "* * * * *",
      prompt: "check the deploy",
      recurring: true,
      durable: true,
      timeZone: "UTC",
      scheduledAt: "2026-11-23T10:00:00.000Z",
    },
    session: "a-newer-session",
    agent: "lead",
  }]);
  clock.now = new Date("2026-11-23T10:03:10Z");
  assert.deepEqual(await schedulerOf(t, clock).tick(), []);
  await t.session.prompt("remind me every minute to check the deploy", run());
  assert.ok(toolNames(t, 0).includes("bash"));
  for (const name of ["schedule_cron", "list_crons", "cancel_cron"]) {
    assert.ok(!toolNames(t, 0).includes(name), `${name} offered`);
  }
  const own = t.events().filter((e) => e.session === t.session.id);
  assert.deepEqual(own.filter((e) => e.type.startsWith("cron.")), [], "no reading, no firing");
  const refused = own.find((e) => e.type === "tool.completed");
  assert.ok(refused?.type === "tool.completed" && refused.data.isError);
  const result = await replaySession(own);
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
});

Deno.test("a session recorded with jobs' settings but no cronTools had cron, and keeps it", async () => {
  await using t = await startTestSession(script, {
    recordSettings: { cronTools: false, jobs: { timeoutMs: 60_000 } },
  });
  await t.session.prompt("hello", run());
  for (const name of ["schedule_cron", "list_crons", "cancel_cron"]) {
    assert.ok(toolNames(t, 0).includes(name), `${name} not offered`);
  }
});

Deno.test("Claude Code's CronCreate, CronList and CronDelete name the cron tools in rules and hooks", () => {
  const rule = parseRule("CronCreate");
  assert.equal(rule.ok && rule.rule.tool, "schedule_cron");
  const list = parseRule("CronList");
  assert.equal(list.ok && list.rule.tool, "list_crons");
  assert.deepEqual(hookMatchNames("cancel_cron"), ["CronDelete", "cancel_cron"]);
  assert.deepEqual(hookMatchNames("CronCreate"), ["CronCreate", "schedule_cron"]);
  const input = { cron: "*/5 * * * *", prompt: "p", recurring: true, durable: false };
  assert.deepEqual(toClaudeCall("schedule_cron", input, "/w"), {
    tool_name: "CronCreate",
    tool_input: input,
  });
  assert.deepEqual(reinToolNames(["CronCreate", "CronList", "CronDelete"]), [
    "schedule_cron",
    "list_crons",
    "cancel_cron",
  ]);
  assert.equal(suggestRule({ tool: "cancel_cron", input: { id: "x" } }, "/w"), "CronDelete");
});

Deno.test("a deny rule on CronCreate keeps schedule_cron from scheduling", async () => {
  const clock = { now: new Date("2026-11-23T10:00:30Z") };
  await using t = await startTestSession(script, {
    recordSettings: { settings: { permissions: { deny: ["CronCreate"] } } },
    clock: () => clock.now,
  });
  await t.session.prompt("remind me every minute to check the deploy", run());
  const completed = t.events().find((e) => e.type === "tool.completed");
  assert.equal(completed?.type === "tool.completed" && completed.data.outcome, "denied");
  assert.deepEqual(cronTableOf(t.harness.state).jobs, {});
  const result = await replaySession(t.events());
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
});

// --- Real processes: `rein -p`, `rein daemon` and the REPL on a clock the test moves. ---

/** A workspace with a test clock (REIN_CLOCK_FILE), a home of its own, and a fake model. */
class CronRig implements AsyncDisposable {
  readonly dir: string;
  readonly fake: FakeAnthropic;
  readonly #children = new Set<Deno.ChildProcess>();

  private constructor(dir: string, fake: FakeAnthropic) {
    this.dir = dir;
    this.fake = fake;
  }

  static async open(script: FakeScriptFn): Promise<CronRig> {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-cron-" }));
    await Deno.mkdir(join(dir, "work"));
    await Deno.mkdir(join(dir, "home"));
    return new CronRig(dir, await startFakeAnthropic({ script }));
  }

  get workspace(): string {
    return join(this.dir, "work");
  }

  get log(): string {
    return join(this.workspace, ".rein", "events.jsonl");
  }

  /** Set the time every rein process of the rig reads. */
  async setClock(iso: string): Promise<void> {
    const file = join(this.dir, "clock");
    await Deno.writeTextFile(`${file}.tmp`, iso);
    await Deno.rename(`${file}.tmp`, file);
  }

  env(): Record<string, string> {
    return {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: join(this.dir, "home"),
      // The home is the rig's (no one's settings): Deno's cache stays where it is.
      DENO_DIR: Deno.env.get("DENO_DIR") ??
        join(
          Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache"),
          "deno",
        ),
      NO_COLOR: "1",
      TZ: "UTC",
      ANTHROPIC_API_KEY: "sk-ant-test-key-0123456789",
      ANTHROPIC_BASE_URL: this.fake.url,
      REIN_CLOCK_FILE: join(this.dir, "clock"),
    };
  }

  /** `rein ARGS` in the workspace, to its end. */
  async rein(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...cliEntry(), "--workspace", this.workspace, ...args],
      env: this.env(),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  }

  /** `rein ARGS` started in the workspace; standard input piped. */
  start(args: string[]): RunningRein {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...cliEntry(), ...args, "--workspace", this.workspace],
      env: this.env(),
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#children.add(child);
    const running = new RunningRein(child);
    void running.output.finally(() => this.#children.delete(child));
    return running;
  }

  /** The log's events (the log may not exist yet: none). */
  async events(): Promise<Envelope[]> {
    const text = await Deno.readTextFile(this.log).catch(() => "");
    return text.split("\n").filter((line) => line.endsWith("}")).map((line) => JSON.parse(line));
  }

  /** Wait until `done` holds for the log's events (polling), or fail naming `what`. */
  async until(
    what: string,
    done: (events: Envelope[]) => boolean,
    ms = 60_000,
  ): Promise<Envelope[]> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const events = await this.events();
      if (done(events)) return events;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`Timed out waiting for ${what}`);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    for (const child of this.#children) {
      try {
        child.kill("SIGKILL");
      } catch {
        // Ended already.
      }
      await child.status;
    }
    await this.fake.close();
    await Deno.remove(this.dir, { recursive: true });
  }
}

/** A rein process of a test: its output as it comes and once it ends, signals, its input. */
class RunningRein {
  readonly #child: Deno.ChildProcess;
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  #stdout = "";
  #stderr = "";
  readonly output: Promise<
    { code: number; signal: Deno.Signal | null; stdout: string; stderr: string }
  >;

  constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.#stdin = child.stdin.getWriter();
    const pump = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
      for await (const text of stream.pipeThrough(new TextDecoderStream())) add(text);
    };
    const pumped = Promise.all([
      pump(child.stdout, (text) => this.#stdout += text),
      pump(child.stderr, (text) => this.#stderr += text),
    ]);
    this.output = Promise.all([child.status, pumped]).then(([status]) => ({
      code: status.code,
      signal: status.signal,
      stdout: this.#stdout,
      stderr: this.#stderr,
    }));
  }

  /** Wait until standard error has printed something matching `pattern`. */
  async untilStderr(pattern: RegExp, ms = 60_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!pattern.test(this.#stderr)) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${pattern} on stderr`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async type(line: string): Promise<void> {
    await this.#stdin.write(new TextEncoder().encode(`${line}\n`));
  }

  async closeInput(): Promise<void> {
    await this.#stdin.close().catch(() => {});
  }

  signal(signal: Deno.Signal): void {
    this.#child.kill(signal);
  }

  /** SIGTERM, then its end. */
  async terminate() {
    this.signal("SIGTERM");
    await this.closeInput();
    return await this.output;
  }

  /** SIGKILL, then its end. */
  async kill() {
    this.signal("SIGKILL");
    await this.closeInput();
    return await this.output;
  }
}

/** Schedules "check the deploy" every minute (durable when asked), answers scheduled prompts. */
function cronScript(hold?: (request: RecordedRequest) => Promise<void> | undefined): FakeScriptFn {
  let checks = 0;
  return async (request) => {
    const last = lastUserText(request.body);
    const results = JSON.stringify(request.body?.messages.at(-1)?.content ?? "");
    if (last.startsWith("remind me") && !results.includes("tool_result")) {
      return message([
        toolUse("call_schedule", "schedule_cron", {
          cron: "* * * * *",
          prompt: "check the deploy",
          durable: last.includes("always"),
        }),
      ]);
    }
    if (last.includes("[Scheduled")) {
      await hold?.(request);
      checks += 1;
      return message(`Checked the deploy (${checks})`);
    }
    return message("Scheduled.");
  };
}

const isDaemonStart = (e: Envelope) => e.type === "session.started" && e.agent === "daemon";
const fired = (events: Envelope[]) => events.flatMap((e) => e.type === "cron.fired" ? [e] : []);
/** Turns that ended after a scheduled prompt (by its text, in log order). */
function scheduledTurnsEnded(events: Envelope[]): number {
  let scheduled = false;
  let ended = 0;
  for (const e of events) {
    if (e.type === "user.prompted") scheduled = e.data.text.startsWith("[Scheduled");
    if (e.type === "turn.ended" && scheduled && e.data.reason === "completed") ended += 1;
  }
  return ended;
}
/** What reached the agents as scheduled input: prompts of their own and joined requests. */
function scheduledInputs(events: Envelope[]): string[] {
  return events.flatMap((e) => {
    if (e.type === "user.prompted" && e.data.text.startsWith("[Scheduled")) return [e.data.text];
    const injected = e as { type: string; data: { source?: string; text?: string } };
    if (injected.type === "arrival.injected" && injected.data.source === "cron") {
      return [injected.data.text ?? ""];
    }
    return [];
  });
}

async function replayVerifies(rig: CronRig): Promise<void> {
  // With the rig's home: its machine key signed the snapshots --verify checks.
  const { HOME, DENO_DIR } = rig.env();
  const replay = await runCli(["replay", rig.log, "--verify", "-q"], {
    permissions: ["--allow-read", "--allow-env"],
    env: { HOME: HOME ?? "", DENO_DIR: DENO_DIR ?? "" },
  });
  assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}\n${replay.stderr}`);
}

Deno.test("rein daemon fires a durable job once a minute across a restart, and once late after downtime", async () => {
  await using rig = await CronRig.open(cronScript());
  await rig.setClock("2026-11-23T10:00:30Z");
  const scheduled = await rig.rein(["-p", "remind me always, every minute, to check the deploy"]);
  assert.equal(scheduled.code, 0, scheduled.stderr);

  const first = rig.start(["daemon"]);
  await rig.until("the daemon's session", (events) => events.some(isDaemonStart));
  for (const [minute, count] of [["10:01", 1], ["10:02", 2]] as const) {
    await rig.setClock(`2026-11-23T${minute}:05Z`);
    await rig.until(
      `the ${minute} firing to run`,
      (events) => scheduledTurnsEnded(events) === count,
    );
  }
  const stopped = await first.terminate();
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.match(stopped.stdout, /\[Scheduled\] check the deploy\n+Checked the deploy \(1\)/);

  // Restarted within the minute it last fired: that minute does not fire again.
  await rig.setClock("2026-11-23T10:02:40Z");
  const second = rig.start(["daemon"]);
  const resumes = (events: Envelope[]) =>
    events.filter((e) => e.type === "session.resumed" && e.agent === "daemon").length;
  await rig.until("the daemon to reopen its session", (events) => resumes(events) === 1);
  await rig.setClock("2026-11-23T10:03:05Z");
  await rig.until("the 10:03 firing to run", (events) => scheduledTurnsEnded(events) === 3);
  assert.equal((await second.terminate()).code, 0);

  // Down from 10:03 to 10:07:30: one late firing for 10:04 to 10:07, then on time again.
  await rig.setClock("2026-11-23T10:07:30Z");
  const third = rig.start(["daemon"]);
  await rig.until("the late firing to run", (events) => scheduledTurnsEnded(events) === 4);
  await rig.setClock("2026-11-23T10:08:02Z");
  await rig.until("the 10:08 firing to run", (events) => scheduledTurnsEnded(events) === 5);
  assert.equal((await third.terminate()).code, 0);

  const events = await rig.events();
  assert.deepEqual(
    fired(events).map((e) => [e.data.minute.slice(11, 16), e.data.late, e.data.missed]),
    [
      ["10:01", false, 0],
      ["10:02", false, 0],
      ["10:03", false, 0],
      ["10:07", true, 3],
      ["10:08", false, 0],
    ],
  );
  assert.deepEqual(scheduledInputs(events), [
    "[Scheduled] check the deploy",
    "[Scheduled] check the deploy",
    "[Scheduled] check the deploy",
    "[Scheduled, late: due 2026-11-23T10:07:00.000Z, 3 earlier times missed] check the deploy",
    "[Scheduled] check the deploy",
  ]);
  const ends = events.filter((e) => e.type === "session.ended" && e.agent === "daemon");
  assert.equal(ends.length, 3, "each SIGTERM ended the session cleanly");
  await replayVerifies(rig);
});

Deno.test("two daemons on one workspace never fire the same minute twice", async () => {
  await using rig = await CronRig.open(cronScript());
  await rig.setClock("2026-11-23T10:00:30Z");
  assert.equal((await rig.rein(["-p", "remind me always, every minute"])).code, 0);
  const one = rig.start(["daemon"]);
  await rig.until("the first daemon", (events) => events.filter(isDaemonStart).length === 1);
  const two = rig.start(["daemon", "--new-session"]);
  await rig.until("the second daemon", (events) => events.filter(isDaemonStart).length === 2);
  for (const [minute, count] of [["10:01", 1], ["10:02", 2], ["10:03", 3]] as const) {
    await rig.setClock(`2026-11-23T${minute}:00Z`);
    await rig.until(
      `the ${minute} firing to run`,
      (events) => scheduledTurnsEnded(events) === count,
    );
  }
  assert.equal((await one.terminate()).code, 0);
  assert.equal((await two.terminate()).code, 0);
  const minutes = fired(await rig.events()).map((e) => e.data.minute.slice(11, 16));
  assert.deepEqual(minutes, ["10:01", "10:02", "10:03"]);
  await replayVerifies(rig);
});

Deno.test("a daemon killed during a firing resumes it: nothing acknowledged lost, nothing doubled", async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  let holding = true;
  await using rig = await CronRig.open(cronScript(() => holding ? held : undefined));
  await rig.setClock("2026-11-23T10:00:30Z");
  assert.equal((await rig.rein(["-p", "remind me always, every minute"])).code, 0);
  const daemon = rig.start(["daemon"]);
  await rig.until("the daemon", (events) => events.some(isDaemonStart));
  await rig.setClock("2026-11-23T10:01:05Z");
  // The firing's turn waits for its answer; meanwhile the next minute fires too.
  await rig.until(
    "the scheduled request",
    (events) => events.findLast((e) => e.agent === "daemon")?.type === "model.requested",
  );
  await rig.setClock("2026-11-23T10:02:05Z");
  await rig.until("the 10:02 firing", (events) => fired(events).length === 2);
  const killed = await daemon.kill();
  assert.equal(killed.signal, "SIGKILL");
  const atKill = await rig.events();
  holding = false;
  release();

  const resumed = rig.start(["daemon"]);
  await rig.until("both firings to have run", (events) =>
    scheduledInputs(events).length === 2 &&
    events.findLast((e) => e.agent === "daemon")?.type === "turn.ended");
  assert.equal((await resumed.terminate()).code, 0);
  const events = await rig.events();
  assert.deepEqual(events.slice(0, atKill.length), atKill, "the log before the kill is kept");
  assert.deepEqual(fired(events).map((e) => e.data.minute.slice(11, 16)), ["10:01", "10:02"]);
  assert.deepEqual(scheduledInputs(events), [
    "[Scheduled] check the deploy",
    "[Scheduled] check the deploy",
  ]);
  assert.ok(
    events.some((e) => e.type === "session.resumed" && e.agent === "daemon"),
    "the daemon reopened its session",
  );
  await replayVerifies(rig);
});

Deno.test("SIGTERM lets the running scheduled turn finish, then ends the session", async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  await using rig = await CronRig.open(cronScript(() => held));
  await rig.setClock("2026-11-23T10:00:30Z");
  assert.equal((await rig.rein(["-p", "remind me always, every minute"])).code, 0);
  const daemon = rig.start(["daemon"]);
  await rig.until("the daemon", (events) => events.some(isDaemonStart));
  await rig.setClock("2026-11-23T10:01:05Z");
  await rig.until(
    "the scheduled request",
    (events) => events.findLast((e) => e.agent === "daemon")?.type === "model.requested",
  );
  daemon.signal("SIGTERM");
  await daemon.untilStderr(/stopping after the running turn/);
  release();
  const output = await daemon.output;
  assert.equal(output.code, 0, output.stderr);
  const daemonEvents = (await rig.events()).filter((e) => e.agent === "daemon").map((e) => e.type);
  assert.deepEqual(daemonEvents.slice(-3), ["model.responded", "turn.ended", "session.ended"]);
  await replayVerifies(rig);
});

Deno.test("the REPL runs a firing that comes while it waits for input as [Scheduled] <prompt>", async () => {
  await using rig = await CronRig.open(cronScript());
  await rig.setClock("2026-11-23T10:00:30Z");
  const repl = rig.start([]);
  await repl.type("remind me every minute to check the deploy");
  await rig.until("the job", (events) => events.some((e) => e.type === "cron.scheduled"));
  await rig.until("the turn's end", (events) => events.some((e) => e.type === "turn.ended"));
  await rig.setClock("2026-11-23T10:01:00Z");
  await rig.until("the scheduled turn", (events) => scheduledTurnsEnded(events) === 1);
  await repl.type("/exit");
  await repl.closeInput();
  const output = await repl.output;
  assert.equal(output.code, 0, output.stderr);
  assert.match(output.stdout, /> \[Scheduled\] check the deploy\n/);
  assert.match(output.stdout, /Checked the deploy \(1\)/);
  const events = await rig.events();
  // Not durable: the job ended with the session.
  assert.ok(events.some((e) => e.type === "session.ended"));
  await replayVerifies(rig);
});

Deno.test("a session's job fires only in the process of the agent that scheduled it (a teammate's never fires the lead's)", async () => {
  const clock = { now: new Date("2026-11-23T10:00:30Z") };
  await using t = await cronSession(clock);
  await t.session.prompt("remind me every minute to check the deploy", run());
  const teammates = new CronScheduler({
    store: t.harness.store,
    state: t.harness.state,
    clock: () => clock.now,
    session: () => ({ session: t.session.id, agent: "bob" }),
  });
  clock.now = new Date("2026-11-23T10:01:00.500Z");
  assert.deepEqual(await teammates.tick(), [], "bob's process leaves the lead's job alone");
  const [fired] = await schedulerOf(t, clock).tick();
  assert.equal(fired?.type, "cron.fired");
  assert.equal(fired?.agent, t.session.agent);
});
