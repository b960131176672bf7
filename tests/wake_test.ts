/**
 * Wake-ups owned by the runner, end to end: a mechanism registered through `createHarness` alone
 * (the toy tally) wakes an idle agent through its wake source; `rein daemon` idle between cron
 * firings takes up a background job's end with a turn of its own, as the REPL does at its prompt
 * (tests/jobs_test.ts has the REPL's tmux test and `-p`'s wait); each replays.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import { type FakeScriptFn, message, toolUse } from "../testing/fake_anthropic.ts";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { lastUserText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { CLI, runCli } from "./_cli.ts";
import { CliProcess } from "./_cli_process.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { Runner } from "../core/runner/runner.ts";
import { startTestSession } from "../testing/test_session.ts";
import { tallyEverywhere as tallyMechanism, tallyOf } from "../testing/tally/mod.ts";
import { toolResultCount } from "../testing/scenarios.ts";
import { text } from "../testing/fake_anthropic.ts";

/** The text of the last message of a request (its blocks' text and tool results). */
function lastMessage(body: { messages: readonly { content: unknown }[] } | undefined): string {
  return JSON.stringify(body?.messages.at(-1)?.content ?? "");
}

/**
 * Schedules "check the deploy" every minute; a scheduled prompt starts the check as a background
 * job and ends its turn; the job's notification is answered with what the job printed.
 */
const deployScript: FakeScriptFn = (request) => {
  const last = lastMessage(request.body);
  if (last.includes("<task-notification>")) {
    const printed = /deploy is (\w+)/.exec(last)?.[1] ?? "unknown";
    return message(`The deploy is ${printed}.`);
  }
  if (last.includes("tool_result")) return message("Started the check.");
  const text = lastUserText(request.body);
  if (text.startsWith("remind me")) {
    return message([toolUse("call_schedule", "schedule_cron", {
      cron: "* * * * *",
      prompt: "check the deploy",
      durable: true,
    })]);
  }
  if (text.includes("[Scheduled")) {
    return message([toolUse("call_check", "bash", {
      command: "sleep 0.5; echo deploy is green",
      description: "Check the deploy",
      run_in_background: true,
    })]);
  }
  return message("Scheduled.");
};

Deno.test("rein daemon: a background job a scheduled turn started wakes the idle daemon, whose turn answers its notification, and the log replays", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-wake-" }));
  const workspace = join(dir, "work");
  await Deno.mkdir(join(workspace, ".claude"), { recursive: true });
  await Deno.mkdir(join(dir, "home"));
  await Deno.writeTextFile(
    join(workspace, ".claude", "settings.json"),
    JSON.stringify({ permissions: { allow: ["Bash"] } }),
  );
  // The person trusted the folder, as Claude Code records it, so its allow rule applies.
  await Deno.writeTextFile(
    join(dir, "home", ".claude.json"),
    JSON.stringify({ projects: { [workspace]: { hasTrustDialogAccepted: true } } }),
  );
  const clock = join(dir, "clock");
  const setClock = async (iso: string) => {
    await Deno.writeTextFile(`${clock}.tmp`, iso);
    await Deno.rename(`${clock}.tmp`, clock);
  };
  const fake = await startFakeAnthropic({ script: deployScript });
  const env = {
    HOME: join(dir, "home"),
    DENO_DIR: Deno.env.get("DENO_DIR") ??
      join(
        Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache"),
        "deno",
      ),
    TZ: "UTC",
    ANTHROPIC_API_KEY: "sk-ant-test-key-0123456789",
    ANTHROPIC_BASE_URL: fake.url,
    REIN_CLOCK_FILE: clock,
  };
  const log = join(workspace, ".rein", "events.jsonl");
  const events = async (): Promise<Envelope[]> => {
    const text = await Deno.readTextFile(log).catch(() => "");
    return text.split("\n").filter((line) => line.endsWith("}")).map((line) => JSON.parse(line));
  };
  let daemon: Deno.ChildProcess | undefined;
  try {
    await setClock("2026-11-23T10:00:30Z");
    const scheduled = await runCli(
      ["-p", "remind me every minute to check the deploy", "--workspace", workspace],
      { env },
    );
    assert.equal(scheduled.code, 0, scheduled.stderr);

    daemon = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", CLI, "daemon", "--workspace", workspace],
      env: { PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1", ...env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = daemon.output();
    const isDaemon = (e: Envelope) => e.agent === "daemon";
    const deadline = Date.now() + 60_000;
    const until = async (what: string, done: (all: Envelope[]) => boolean) => {
      while (!done(await events())) {
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    await until("the daemon's session", (all) => all.some((e) => isDaemon(e)));
    await setClock("2026-11-23T10:01:05Z");
    // The firing's turn starts the job and ends; the job's end then starts a turn of its own.
    const wokenTurnEnded = (all: Envelope[]) => {
      const woke = all.findIndex((e) =>
        isDaemon(e) && e.type === "arrival.injected" && e.data.source === "jobs"
      );
      return woke >= 0 && all.slice(woke).some((e) => isDaemon(e) && e.type === "turn.ended");
    };
    await until("the turn the job's end started", wokenTurnEnded);
    daemon.kill("SIGTERM");
    const out = await output;
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));

    const all = (await events()).filter(isDaemon);
    const types: string[] = all.map((e) => e.type);
    const jobEnded = types.indexOf("job.finished");
    const injected = types.indexOf("arrival.injected");
    const firstTurnEnded = types.indexOf("turn.ended");
    // The job ended after the firing's turn had ended: the daemon was idle, and woke to it.
    assert.ok(firstTurnEnded < jobEnded, types.join(" "));
    assert.ok(jobEnded < injected, types.join(" "));
    assert.equal(types[injected + 1], "turn.started");
    const ends = all.filter((e) => e.type === "turn.ended");
    assert.deepEqual(ends.map((e) => e.type === "turn.ended" && e.data.reason), [
      "completed",
      "completed",
    ]);
    const answered = all.findLast((e) => e.type === "model.responded");
    assert.ok(answered?.type === "model.responded");
    assert.deepEqual(answered.data.content, [{ type: "text", text: "The deploy is green." }]);
    assert.match(stdout, /\[Scheduled\] check the deploy/);
    assert.match(stdout, /woken by jobs b[0-9a-f]{8}/);
    assert.match(stdout, /\(jobs b[0-9a-f]{8}: completed after 1 round\)/);

    const replay = await runCli(["replay", log, "--verify", "--quiet"], { env });
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
  } finally {
    try {
      daemon?.kill("SIGKILL");
    } catch {
      // Ended already.
    }
    await daemon?.status;
    killProcessesIn(workspace);
    await fake.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a mechanism's wake source wakes an idle agent: the runner waits for it and runs a turn on it, which replays", async () => {
  await using t = await startTestSession((request) => {
    const last = lastMessage(request.body);
    if (last.includes("Please add 2")) {
      return message([text("Adding."), toolUse("toolu_add", "tally_add", { by: 2 })]);
    }
    return message(toolResultCount(request.body) > 0 ? "Added." : "Hello.");
  }, { mechanisms: [tallyMechanism] });
  const lead = t.session;
  const first = await lead.prompt("hello", {
    signal: new AbortController().signal,
    maxTurns: null,
  });
  assert.equal(first.reason, "completed");

  const runner = new Runner(t.harness);
  const waiting = runner.nextWake(lead, new AbortController().signal);
  // Someone outside the agent's loop asks it (another process would append this).
  await t.store.append([{
    type: "tally.asked",
    data: { by: 2 },
    session: "session-1",
    agent: "lead",
  }]);
  const wake = await waiting;
  assert.equal(wake.source, "tally");
  assert.equal(wake.prompt, undefined);
  assert.equal(runner.wokenBy(lead, wake), `tally ${wake.key}`);
  const result = await runner.wake(lead, wake, { maxTurns: null }).done;
  assert.equal(result?.reason, "completed");
  assert.equal(tallyOf(t.harness.state, "session-1"), 2);
  assert.equal(lead.lastText, "Added.");
  // Taken up: nothing wakes the agent any more.
  const again = new AbortController();
  const nothing = runner.nextWake(lead, again.signal);
  again.abort(new Error("Nothing woke it"));
  await assert.rejects(nothing, /Nothing woke it/);

  const types: string[] = t.events().map((e) => e.type);
  const asked = types.indexOf("tally.asked");
  assert.deepEqual(types.slice(asked, asked + 3), [
    "tally.asked",
    "arrival.injected",
    "turn.started",
  ]);
  const replay = await replaySession(t.events(), { mechanisms: [tallyMechanism] });
  assert.equal(replay.divergence, null, JSON.stringify(replay.divergence));
  assert.equal(replay.matched, t.events().length);
});

Deno.test("rein -p waits for each background job its turn left running, saying which, and answers each as it ends", async () => {
  // Each job lasts until the test has seen rein say it waits for it (10 s at most): the first
  // until the wait for both, the second until the wait for it alone.
  const job = (go: string, says: string) =>
    `timeout 10 sh -c 'until [ -f ${go} ]; do sleep 0.02; done'; echo job says ${says}`;
  const fake = await startFakeAnthropic({
    script: (request) => {
      const last = lastMessage(request.body);
      const said = /job says (\w+)/.exec(last)?.[1];
      if (last.includes("<task-notification>")) return message(`The job said ${said}.`);
      if (last.includes("tool_result")) return message("Started both.");
      return message([
        toolUse("toolu_one", "bash", {
          command: job("go-one", "one"),
          description: "First",
          run_in_background: true,
        }),
        toolUse("toolu_two", "bash", {
          command: job("go-two", "two"),
          description: "Second",
          run_in_background: true,
        }),
      ]);
    },
  });
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-wake-p-" }));
  try {
    await using rein = new CliProcess(
      ["-p", "Run two jobs", "--allowedTools", "Bash", "--workspace", workspace],
      { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-fake-wake-test" },
      {
        onStderrLine: async (line) => {
          if (line.startsWith("Waiting for background jobs")) {
            await Deno.writeTextFile(join(workspace, "go-one"), "");
          } else if (line.startsWith("Waiting for background job ")) {
            await Deno.writeTextFile(join(workspace, "go-two"), "");
          }
        },
      },
    );
    const out = await rein.output;
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), "The job said two.");
    const waits = out.stderr.split("\n").filter((line) => line.startsWith("Waiting for"));
    assert.equal(waits.length, 2, out.stderr);
    assert.match(
      waits[0] ?? "",
      /^Waiting for background jobs b[0-9a-f]{8} \(First\), b[0-9a-f]{8} \(Second\)…$/,
    );
    assert.match(waits[1] ?? "", /^Waiting for background job b[0-9a-f]{8} \(Second\)…$/);
    // The turn, then one turn per job's end, each answering what that job printed.
    const answers = fake.requests.length;
    assert.equal(answers, 4);
    const log = join(workspace, ".rein", "events.jsonl");
    const replay = await runCli(["replay", log, "--verify", "--quiet"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
  } finally {
    killProcessesIn(workspace);
    await fake.close();
    await Deno.remove(workspace, { recursive: true });
  }
});
