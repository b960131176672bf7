/**
 * Crash tests: the CLI runs as a child process against the fake model server (which lives in
 * this process and survives it), is SIGKILLed at a chosen point of a 20-call bash session, and
 * is resumed with `--continue -p`. Whatever the kill point, the resumed run must finish, lose
 * nothing that was logged, run no call twice, and leave a log that replays exactly.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope, EnvelopeOf, EventType } from "../events/event_types.ts";
import { runCli } from "./_cli.ts";
import { type CliOutput, CliProcess } from "./_cli_process.ts";
import {
  type FakeAnthropic,
  type FakeScriptFn,
  type RecordedRequest,
  startFakeAnthropic,
} from "../testing/fake_anthropic.ts";
import { sequentialBash, toolResultCount } from "../testing/scenarios.ts";
import { killProcessesIn, processesIn } from "../testing/tool_helpers.ts";

const CALLS = 20;
const DONE = `Done: ran ${CALLS} commands`;
const POLL_MS = 5;
const WAIT_MS = 20_000;
/** Delay between the SSE events of a slow reply: ten or so events take about ten seconds. */
const SLOW_CHUNK_MS = 1_000;

Deno.test("a kill while a model reply streams is resumed by asking the same request again", async () => {
  const slowAfter = 6;
  const slow = slowOnce(sequentialBash(CALLS, lineCommand), slowAfter);
  await using rig = await CrashRig.open(slow.script);
  const agent = rig.startAgent();

  await rig.waitUntil(agent, "the slow reply to start streaming", () => {
    const request = slow.request();
    return request?.status === 200 && request.outcome === undefined;
  });
  assert.equal((await agent.kill()).signal, "SIGKILL");
  await rig.waitUntil(null, "the fake server to see the stream dropped", () => {
    return slow.request()?.outcome === "dropped";
  });

  const atKill = await rig.logLines();
  const before = atKill.map(parseEvent);
  const asked = before.findLastIndex((event) => event.type === "model.requested");
  assert.ok(asked >= 0, "no model request was logged before the kill");
  assert.deepEqual(before.slice(asked + 1).map((event) => event.type), []);
  assert.equal(eventsOf(before, "tool.completed").length, slowAfter);

  const resumed = await rig.resume();
  const events = await assertRecovered(rig, atKill, resumed, []);
  const digests = eventsOf(events, "model.requested").map((e) => e.data.digest);
  assert.equal(digests[slowAfter + 1], digests[slowAfter], "the request asked again differs");
  const streamed = slow.request();
  const again = rig.fake.requests[streamed?.seq ?? -1];
  assert.ok(streamed?.body && again?.body, "the unanswered request was not asked again");
  assert.deepEqual(again.body.messages, streamed.body.messages);
});

Deno.test("a kill between a bash intent and its result closes the call as interrupted, not re-run", async () => {
  const k = 12;
  const command = (i: number) =>
    i === k ? `${lineCommand(i)}; sleep 30; echo LEAKED >> out.txt` : lineCommand(i);
  await using rig = await CrashRig.open(sequentialBash(CALLS, command));
  const agent = rig.startAgent();

  await rig.waitUntil(agent, `call ${k} to be running`, async () => {
    const events = (await rig.logLines()).map(parseEvent);
    const started = eventsOf(events, "tool.requested").some((e) => e.data.callId === callId(k));
    return started && (await rig.outputLines()).includes(`line-${k}`);
  });
  assert.equal((await agent.kill()).signal, "SIGKILL");

  const atKill = await rig.logLines();
  const before = atKill.map(parseEvent);
  assert.ok(eventsOf(before, "tool.requested").some((e) => e.data.callId === callId(k)));
  assert.deepEqual(
    eventsOf(before, "tool.completed").map((e) => e.data.callId),
    range(k - 1).map(callId),
  );
  // setpriv --pdeathsig must take the command's bash down with the agent.
  await rig.waitUntil(null, `the bash of call ${k} to die with the agent`, () => {
    return processesIn(rig.workspace).every((p) => !p.command.includes("LEAKED"));
  }, 5_000);

  const resumed = await rig.resume();
  const events = await assertRecovered(rig, atKill, resumed, [callId(k)]);
  const closed = eventsOf(events, "tool.completed").find((e) => e.data.callId === callId(k));
  assert.equal(closed?.data.outcome, "interrupted");
  assert.equal(closed.data.isError, true);
  assert.ok(
    closed.data.content.startsWith("Interrupted: outcome unknown"),
    `unexpected content: ${closed.data.content}`,
  );
  assert.ok(!(await rig.outputLines()).includes("LEAKED"));
});

Deno.test("a kill just after a tool result is resumed without running any call twice", async () => {
  const k = 17;
  // The reply after call k streams slowly, so the agent cannot run ahead of the kill.
  const slow = slowOnce(sequentialBash(CALLS, lineCommand), k);
  await using rig = await CrashRig.open(slow.script);
  const agent = rig.startAgent();

  await rig.waitUntil(agent, `the result of call ${k}`, async () => {
    const events = (await rig.logLines()).map(parseEvent);
    return eventsOf(events, "tool.completed").some((e) => e.data.callId === callId(k));
  });
  assert.equal((await agent.kill()).signal, "SIGKILL");
  slow.disarm();

  const atKill = await rig.logLines();
  const before = atKill.map(parseEvent);
  assert.deepEqual(
    eventsOf(before, "tool.completed").map((e) => e.data.callId),
    range(k).map(callId),
  );
  assert.deepEqual(eventsOf(before, "turn.ended"), []);

  const resumed = await rig.resume();
  await assertRecovered(rig, atKill, resumed, []);
});

Deno.test({
  name: "processes started by a command do not outlive a killed agent",
  async fn() {
    const command = "echo started >> out.txt; sleep 30; echo LEAKED >> out.txt";
    await using rig = await CrashRig.open(sequentialBash(1, () => command));
    const agent = rig.startAgent();
    await rig.waitUntil(agent, "the command's sleep to start", () => {
      return processesIn(rig.workspace).some((p) => p.command.startsWith("sleep"));
    });
    await agent.kill();
    const allEnded = () => processesIn(rig.workspace).length === 0;
    await rig.waitUntil(null, "every process of the command to end", allEnded, 5_000)
      .catch(() => {});
    assert.deepEqual(processesIn(rig.workspace).map((p) => p.command), []);
  },
});

/**
 * A workspace, a fake model server that outlives the agent processes, and the commands run
 * against both. Disposing it kills what is left (agents, and any process still working in the
 * workspace), stops the server and removes the workspace.
 */
class CrashRig implements AsyncDisposable {
  readonly #agents: CliProcess[] = [];

  private constructor(readonly workspace: string, readonly fake: FakeAnthropic) {}

  static async open(script: FakeScriptFn): Promise<CrashRig> {
    const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein_crash_" }));
    try {
      return new CrashRig(workspace, await startFakeAnthropic({ script }));
    } catch (error) {
      await Deno.remove(workspace, { recursive: true });
      throw error;
    }
  }

  get logPath(): string {
    return join(this.workspace, ".rein", "events.jsonl");
  }

  /** Starts the headless run of the scripted session. */
  startAgent(): CliProcess {
    return this.#spawn([
      "agent",
      "-p",
      "Run the commands",
      "--allowedTools",
      "Bash",
      "--workspace",
      this.workspace,
    ]);
  }

  /** Reopens the latest session of the workspace and runs it to its end. */
  async resume(): Promise<CliOutput> {
    return await this.#spawn([
      "agent",
      "--continue",
      "-p",
      "--allowedTools",
      "Bash",
      "--workspace",
      this.workspace,
    ]).output;
  }

  /** The complete lines of the log (a torn last line is left out). */
  async logLines(): Promise<string[]> {
    return (await readIfExists(this.logPath)).split("\n").slice(0, -1);
  }

  /** Lines of the out.txt the commands append to. */
  async outputLines(): Promise<string[]> {
    return (await readIfExists(join(this.workspace, "out.txt"))).split("\n").filter(Boolean);
  }

  /** Polls `ready`; throws on timeout or, when `agent` is given, if the agent ends first. */
  async waitUntil(
    agent: CliProcess | null,
    what: string,
    ready: () => boolean | Promise<boolean>,
    timeoutMs = WAIT_MS,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await ready())) {
      if (agent && !agent.running) {
        const { code, stderr } = await agent.output;
        throw new Error(`The agent exited with ${code} before ${what}: ${stderr}`);
      }
      if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  #spawn(args: string[]): CliProcess {
    const agent = new CliProcess(args, {
      ANTHROPIC_BASE_URL: this.fake.url,
      ANTHROPIC_API_KEY: "sk-fake-crash-test",
      REIN_RETRY_BASE_MS: "5",
    });
    this.#agents.push(agent);
    return agent;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all(this.#agents.map((agent) => agent.kill()));
    killProcessesIn(this.workspace);
    await this.fake.close();
    await Deno.remove(this.workspace, { recursive: true });
  }
}

/**
 * The checks every crash must pass after its resume: the resumed run finished with the script's
 * answer; the log kept every line written before the kill, has gapless seqs and one session;
 * every call was started once and has exactly one result, and only `interrupted` ones were
 * closed without running; each command's line is in out.txt exactly once, in order; and the
 * log replays offline with no divergence. Returns the final log.
 */
async function assertRecovered(
  rig: CrashRig,
  atKill: string[],
  resumed: CliOutput,
  interrupted: string[],
): Promise<Envelope[]> {
  assert.equal(resumed.code, 0, `the resumed run failed: ${resumed.stderr}`);
  assert.equal(resumed.stdout.trim(), DONE);

  const lines = await rig.logLines();
  assert.deepEqual(lines.slice(0, atKill.length), atKill, "the resume changed the logged past");
  const events = lines.map(parseEvent);
  assert.deepEqual(events.map((e) => e.seq), range(events.length));
  assert.equal(eventsOf(events, "session.started").length, 1);
  assert.deepEqual(eventsOf(events, "session.resumed").map((e) => e.data.how), ["continue"]);
  assert.deepEqual(events.at(-1)?.type, "session.ended", "the resumed run ended the session");
  const last = events.at(-2);
  assert.equal(last?.type, "turn.ended");
  assert.equal(last.data.reason, "completed");

  const ids = range(CALLS).map(callId);
  const requested = eventsOf(events, "tool.requested").map((e) => e.data.callId);
  const completed = eventsOf(events, "tool.completed");
  assert.deepEqual(requested, ids, "a call was not started exactly once");
  assert.deepEqual(completed.map((e) => e.data.callId), ids, "a call has not exactly one result");
  for (const { data } of completed) {
    const expected = interrupted.includes(data.callId) ? "interrupted" : undefined;
    assert.equal(data.outcome, expected, `outcome of ${data.callId}`);
    if (expected === undefined) {
      assert.equal(data.isError, false, `${data.callId}: ${data.content}`);
    }
  }
  assert.deepEqual(await rig.outputLines(), range(CALLS).map((i) => `line-${i}`));

  const replay = await runCli(["replay", rig.logPath, "--verify", "--quiet"]);
  assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
  return events;
}

/**
 * Wraps `script` so that the first reply asked for once `afterResults` tool results exist
 * streams slowly; `request()` is that request once it has arrived. After `disarm()` no reply is
 * slow, so a resumed run is not held up by a slow reply meant for the killed one.
 */
function slowOnce(script: FakeScriptFn, afterResults: number) {
  let slow: RecordedRequest | undefined;
  let armed = true;
  const wrapped: FakeScriptFn = async (request, index) => {
    const reply = await script(request, index);
    if (!armed || reply.kind !== "message" || toolResultCount(request.body) !== afterResults) {
      return reply;
    }
    armed = false;
    slow = request;
    return { ...reply, chunkDelayMs: SLOW_CHUNK_MS };
  };
  return { script: wrapped, request: () => slow, disarm: () => armed = false };
}

function lineCommand(i: number): string {
  return `echo line-${i} >> out.txt`;
}

function callId(i: number): string {
  return `toolu_bash_${i}`;
}

/** 1..n */
function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

function parseEvent(line: string): Envelope {
  return JSON.parse(line) as Envelope;
}

function eventsOf<T extends EventType>(events: Envelope[], type: T): EnvelopeOf<T>[] {
  return events.filter((event): event is EnvelopeOf<T> => event.type === type);
}

async function readIfExists(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "";
    throw error;
  }
}
