/**
 * Teammates as OS processes, end to end against the fake model: the lead's process starts a
 * spawned teammate as `rein teammate` with narrowed Deno flags (recorded with its pid in
 * `agent.started`); the teammate's own process makes its own model request and finishes its
 * turn; `rein team --json` shows it; a SIGKILL of it is recorded (`agent.exited`) and it is started
 * again; when the lead's process ends no teammate process outlives it; the whole team's log
 * replays with `--verify`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope, EnvelopeOf, EventType } from "../events/event_types.ts";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { firstUserText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { runCli } from "./_cli.ts";
import { CliProcess } from "./_cli_process.ts";

// A teammate left idle is asked to shut down when -p ends: one that does not answer is not waited
// for long.
const TEAMS = { CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1", REIN_SHUTDOWN_TIMEOUT_MS: "300" };

function eventsOf<T extends EventType>(events: readonly Envelope[], type: T): EnvelopeOf<T>[] {
  return events.filter((event): event is EnvelopeOf<T> => event.type === type);
}

async function readEvents(log: string): Promise<Envelope[]> {
  const text = await Deno.readTextFile(log).catch(() => "");
  return text.split("\n").filter((line) => line.endsWith("}")).map((line) => JSON.parse(line));
}

/** Wait until the log has what `found` looks for; fails after 30 s or when rein ended. */
async function waitForLog<T>(
  log: string,
  lead: CliProcess,
  what: string,
  found: (events: Envelope[]) => T | undefined,
): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const result = found(await readEvents(log));
    if (result !== undefined) return result;
    if (!lead.running) throw new Error(`rein ended before ${what}: ${(await lead.output).stderr}`);
    if (Date.now() > deadline) {
      const types = (await readEvents(log)).map((e) => `${e.agent}:${e.type}`).join("\n");
      throw new Error(`timed out waiting for ${what}:\n${types}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * What a Deno process with `flags` gets when it reads a file of the workspace, reads the
 * person's home, reads a path outside the workspace and writes one: `ok` or the error's name.
 */
async function probe(flags: readonly string[], workspace: string): Promise<string[]> {
  await Deno.writeTextFile(join(workspace, "inside.txt"), "in");
  const home = Deno.env.get("HOME") ?? "/root";
  const script = `
    const tries = [
      () => Deno.readTextFileSync(${JSON.stringify(join(workspace, "inside.txt"))}),
      () => Deno.readDirSync(${JSON.stringify(home)}).next(),
      () => Deno.readTextFileSync("/etc/hostname"),
      () => Deno.writeTextFileSync("/var/tmp/rein-team-probe", "x"),
    ];
    console.log(JSON.stringify(tries.map((f) => {
      try { f(); return "ok"; } catch (e) { return e.name; }
    })));`;
  const file = join(await Deno.makeTempDir({ prefix: "rein-team-probe-" }), "probe.ts");
  await Deno.writeTextFile(file, script);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...flags, file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  await Deno.remove(join(file, ".."), { recursive: true });
  return JSON.parse(new TextDecoder().decode(out.stdout) || "[]");
}

function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}

Deno.test("a teammate runs in its own process: its own request and turn, a SIGKILL recorded and restarted, none outlives the lead, and the log replays", async () => {
  let release: (() => void) | undefined;
  const held = new Promise<void>((resolve) => release = resolve);
  const teammateRequests: string[] = [];
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      if (first === "Review x.ts") {
        teammateRequests.push(first);
        return message("Reviewed x.ts.");
      }
      if ((request.body?.messages.length ?? 0) > 1) return message("Team done.");
      return message([
        toolUse("toolu_alice", "spawn_teammate", {
          name: "alice",
          prompt: "Review x.ts",
          role: "reviewer",
        }),
      ]);
    },
    // The lead's answer after the spawn waits until the test has seen the teammate work.
    onRequest: async (request) => {
      const lead = firstUserText(request.body?.messages ?? []) === "start alice";
      if (lead && (request.body?.messages.length ?? 0) > 1) await held;
    },
  });
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-process-" }));
  const log = join(path, ".rein", "events.jsonl");
  try {
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test", ...TEAMS };
    await using lead = new CliProcess(["-p", "start alice", "--workspace", path], env);
    // The teammate's own process asks the model and ends its turn.
    await waitForLog(
      log,
      lead,
      "the teammate's turn",
      (events) =>
        events.find((e) =>
          e.type === "turn.ended" && e.agent === "alice" && e.data.reason === "completed"
        ),
    );
    assert.deepEqual(teammateRequests, ["Review x.ts"]);
    let events = await readEvents(log);
    const spawned = eventsOf(events, "agent.spawned").find((e) => e.agent === "alice");
    const started = eventsOf(events, "agent.started");
    assert.ok(spawned !== undefined);
    assert.equal(started.length, 1);
    const first = started[0]!;
    // Recorded before the process started; its flags narrowed.
    assert.ok(events.indexOf(spawned) < events.indexOf(first));
    assert.equal(first.agent, "alice");
    assert.equal(first.data.restart, 0);
    const flags = first.data.process.flags;
    assert.ok(flags.includes("--allow-run=bash,bwrap,setsid,rg,git"), flags.join(" "));
    assert.ok(flags.includes(`--allow-net=${new URL(fake.url).host}`), flags.join(" "));
    assert.ok(flags.some((flag) => flag.startsWith("--allow-write=") && flag.includes(path)));
    assert.ok(!flags.includes("--allow-all") && !flags.includes("-A"));
    assert.ok(alive(first.data.process.pid));
    // What the flags grant: the workspace, not the person's home or a path outside the workspace.
    assert.deepEqual(await probe(flags, path), ["ok", "NotCapable", "NotCapable", "NotCapable"]);
    // The teammate's events are its own: its prompt from the spawn, its request and its answer.
    const own = events.filter((e) => e.agent === "alice").map((e) => e.type);
    for (const type of ["user.prompted", "model.requested", "model.responded", "turn.ended"]) {
      assert.ok(own.includes(type as EventType), `alice has no ${type}: ${own.join(", ")}`);
    }
    const prompted = eventsOf(events, "user.prompted").find((e) => e.agent === "alice");
    assert.equal(prompted?.data.text, "Review x.ts");

    const team = await runCli(["team", log, "--json"]);
    assert.equal(team.code, 0, team.stderr);
    const roster = JSON.parse(team.stdout) as {
      name: string;
      role: string;
      status: string;
      process: { pid: number } | null;
      usage: { input_tokens: number; output_tokens: number };
    }[];
    // Its usage is its own responses'.
    assert.ok((roster[0]?.usage.input_tokens ?? 0) > 0, JSON.stringify(roster[0]?.usage));
    assert.deepEqual(
      roster.map((entry) => [entry.name, entry.role, entry.status, entry.process?.pid]),
      [["alice", "reviewer", "idle", first.data.process.pid]],
    );

    // SIGKILL: recorded, and the teammate is started again.
    Deno.kill(first.data.process.pid, "SIGKILL");
    const restarted = await waitForLog(
      log,
      lead,
      "the restart",
      (all) => eventsOf(all, "agent.started").find((e) => e.data.restart === 1),
    );
    events = await readEvents(log);
    assert.deepEqual(
      eventsOf(events, "agent.exited").map((e) => [e.agent, e.data.code, e.data.signal]),
      [["alice", null, "SIGKILL"]],
    );
    assert.notEqual(restarted.data.process.pid, first.data.process.pid);
    // Its turn had ended: it idles, and asks the model nothing again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(alive(restarted.data.process.pid));
    assert.deepEqual(teammateRequests, ["Review x.ts"]);

    release?.();
    const out = await lead.output;
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), "Team done.");
    // No teammate process outlives the lead's.
    assert.ok(!alive(restarted.data.process.pid));

    const replay = await runCli(["replay", log, "--verify"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
    // Every event was matched, the teammate's included: replay re-drove it.
    const total = (await readEvents(log)).length;
    assert.match(replay.stdout, new RegExp(`: ${total} events replayed, all match the log`));
  } finally {
    release?.();
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});

Deno.test("a teammate killed mid-turn is started again and continues its turn from the log; a SIGKILL of the lead leaves no teammate running; the log replays", async () => {
  let release: (() => void) | undefined;
  const held = new Promise<void>((resolve) => release = resolve);
  let teammateAsked = 0;
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      if (first === "Count files") return message("There are none.");
      if ((request.body?.messages.length ?? 0) > 1) return message("Team done.");
      return message([
        toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "Count files" }),
      ]);
    },
    // The teammate's first request is held (it is killed then); the lead's second, throughout.
    onRequest: async (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      if (first === "Count files" && ++teammateAsked === 1) await held;
      if (first === "start bob" && (request.body?.messages.length ?? 0) > 1) await held;
    },
  });
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-process-" }));
  const log = join(path, ".rein", "events.jsonl");
  try {
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test", ...TEAMS };
    await using lead = new CliProcess(["-p", "start bob", "--workspace", path], env);
    const first = await waitForLog(
      log,
      lead,
      "the teammate's request",
      (events) =>
        // Killed once its request has reached the model (the fake holds it).
        teammateAsked > 0 ? eventsOf(events, "agent.started")[0] : undefined,
    );
    Deno.kill(first.data.process.pid, "SIGKILL");
    // Started again, it continues its turn: it asks the model again and answers.
    await waitForLog(
      log,
      lead,
      "the continued turn",
      (events) =>
        events.find((e) =>
          e.type === "turn.ended" && e.agent === "bob" && e.data.reason === "completed"
        ),
    );
    const events = await readEvents(log);
    assert.equal(teammateAsked, 2);
    assert.deepEqual(
      eventsOf(events, "agent.exited").map((e) => [e.agent, e.data.signal]),
      [["bob", "SIGKILL"]],
    );
    assert.ok(events.some((e) => e.type === "session.resumed" && e.agent === "bob"));
    const restarted = eventsOf(events, "agent.started").find((e) => e.data.restart === 1);
    assert.ok(restarted !== undefined && alive(restarted.data.process.pid));
    // The lead's process is killed: its teammate dies with it.
    await lead.kill();
    const deadline = Date.now() + 5_000;
    while (alive(restarted.data.process.pid) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.ok(!alive(restarted.data.process.pid), "the teammate outlived the lead");
    release?.();
    const replay = await runCli(["replay", log, "--verify"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
  } finally {
    release?.();
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});

Deno.test("a lead resumed with --continue starts again the teammates that were live", async () => {
  let releaseFirst: (() => void) | undefined;
  const firstHeld = new Promise<void>((resolve) => releaseFirst = resolve);
  let carolBack: (() => void) | undefined;
  const carolAskedAgain = new Promise<void>((resolve) => carolBack = resolve);
  let carolAsked = 0;
  let leadProcess = 1;
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      if (first === "Lint it") return message("Linted.");
      if ((request.body?.messages.length ?? 0) > 1) return message("Team done.");
      return message([
        toolUse("toolu_carol", "spawn_teammate", { name: "carol", prompt: "Lint it" }),
      ]);
    },
    onRequest: async (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      // The shutdown request at the end of -p is not one of carol's turns.
      if (JSON.stringify(request.body?.messages.at(-1)).includes("shutdown_request")) return;
      if (first === "Lint it" && ++carolAsked === 1) await firstHeld;
      if (first === "Lint it" && carolAsked === 2) carolBack?.();
      const lead = first === "start carol" && (request.body?.messages.length ?? 0) > 1;
      // The first process's lead waits (it is killed); the resumed one waits for carol.
      if (lead && leadProcess === 1) await firstHeld;
      if (lead && leadProcess === 2) await carolAskedAgain;
    },
  });
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-process-" }));
  const log = join(path, ".rein", "events.jsonl");
  try {
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test", ...TEAMS };
    {
      await using lead = new CliProcess(["-p", "start carol", "--workspace", path], env);
      await waitForLog(
        log,
        lead,
        "carol's request",
        (events) => carolAsked > 0 ? events.find((e) => e.agent === "carol") : undefined,
      );
      await lead.kill();
    }
    leadProcess = 2;
    const resumed = await runCli(["--continue", "-p", "--workspace", path], { env });
    releaseFirst?.();
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.stdout.trim(), "Team done.");
    assert.equal(carolAsked, 2);
    const events = await readEvents(log);
    assert.deepEqual(
      eventsOf(events, "agent.started").map((e) => [e.agent, e.data.restart]),
      [["carol", 0], ["carol", 1]],
    );
    const resume = events.findIndex((e) => e.type === "session.resumed" && e.agent === "lead");
    const restart = events.findIndex((e) => e.type === "agent.started" && e.data.restart === 1);
    assert.ok(resume >= 0 && restart >= 0);
    const replay = await runCli(["replay", log, "--verify"]);
    assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
  } finally {
    releaseFirst?.();
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});
