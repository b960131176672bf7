/**
 * The lead's warm spare teammate process (cli/teammate_spare.ts), end to end against the fake
 * model:
 * - a spawn takes the spare when its flags are the teammate's (its command line still names the
 *   spare), and the log is the one a cold spawn (the spare turned off) writes, event for event;
 * - the spare dies with the lead's process (SIGKILL), and ends with a `-p` run that spawned
 *   nobody, having appended, asked and written nothing;
 * - a spare left waiting, its pipe closed, exits 0 having done nothing; a bad assignment, 1;
 * - flags that changed after the spare started (a repository appeared above the workspace: the
 *   teammate may read it) → the teammate starts cold, with the new flags;
 * - a burst of four spawns in one answer: the first three take the three spares, each started
 *   once the one before is warm while the lead waits; the fourth starts cold;
 * - `REIN_TEAMMATE_SPARE=0`, or `"teams": {"spare": false}` in the settings: no spare; the
 *   person's `teams.spare` holds though a repository's settings set `teams` too; a value that is
 *   no count is told once, naming its file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import {
  message,
  type RecordedRequest,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { firstUserText, lastMessageText } from "../testing/scenarios.ts";
import { killProcessesIn, processesIn } from "../testing/tool_helpers.ts";
import { READY_LINE } from "../cli/teammate_spare.ts";
import { CLI, runCli } from "./_cli.ts";
import { CliProcess } from "./_cli_process.ts";
import { alive, ended, eventsOf, mailIn, readLog, teamEnv, untilLogged } from "./_team_e2e.ts";

/** The processes in `dir` that are a spare (their command line names the spare). */
function sparesIn(dir: string): number[] {
  return processesIn(dir).filter((p) => / teammate --session spare --agent spare /.test(p.command))
    .map((p) => p.pid);
}

/** Wait until a spare runs in `dir`; its pid. */
async function spareIn(dir: string, running: () => boolean): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [pid] = sparesIn(dir);
    if (pid !== undefined) return pid;
    if (!running()) throw new Error("The lead ended before a spare started");
    if (Date.now() > deadline) throw new Error("No spare started");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What a run of the team of one saw. */
interface TeamRun {
  events: Envelope[];
  /** The teammate's process's command line while it asked the model first. */
  command: string;
  /** Spares running while the lead's first request was answered. */
  spares: number[];
  workspace: string;
  /** The fake model's host and port. */
  host: string;
}

/**
 * `rein -p` whose lead spawns hank, who writes a file and mails the lead; the lead's first
 * answer waits for a spare when `waitForSpare`. Run in `workspace`, which it leaves in place.
 */
async function teamOfOne(
  workspace: string,
  options: { waitForSpare: boolean; env?: Record<string, string>; args?: string[] },
): Promise<TeamRun> {
  const log = join(workspace, ".rein", "events.jsonl");
  let command = "";
  let spares: number[] = [];
  let running = () => true;
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      const last = lastMessageText(request);
      if (first === "write hi") {
        if (last.includes("shutdown_request")) {
          return message([toolUse("toolu_bye", "respond_shutdown", { approve: true })]);
        }
        if (last === "write hi") {
          return message([toolUse("toolu_echo", "bash", { command: "echo hi > hank.txt" })]);
        }
        if (last.startsWith("toolu_echo ")) {
          return message([
            toolUse("toolu_mail", "send_message", { to: "team-lead", content: "hank: done" }),
          ]);
        }
        return message("Sent.");
      }
      if (mailIn(request).some((letter) => letter.text.includes("hank: done"))) {
        return message("Hank is done.");
      }
      if (last.startsWith("toolu_hank ")) return message("Waiting for hank.");
      return message([
        toolUse("toolu_hank", "spawn_teammate", { name: "hank", prompt: "write hi" }),
      ]);
    },
    onRequest: async (request: RecordedRequest) => {
      const first = firstUserText(request.body?.messages ?? []);
      const last = lastMessageText(request);
      if (first === "start hank" && request.body?.messages?.length === 1) {
        if (options.waitForSpare) await spareIn(workspace, running);
        spares = sparesIn(workspace);
      }
      if (first === "write hi" && last === "write hi") {
        const started = await untilLogged(
          log,
          "hank's start",
          (events) => eventsOf(events, "agent.started")[0],
        );
        command = Deno.readTextFileSync(`/proc/${started.data.process.pid}/cmdline`)
          .replaceAll("\0", " ");
      }
      // Hank mails the lead once its turn has ended: the same order in every run.
      if (first === "write hi" && last.startsWith("toolu_echo ")) {
        await untilLogged(
          log,
          "the lead's turn's end",
          (events) =>
            events.some((e) => e.type === "turn.ended" && e.agent === "lead") || undefined,
        );
      }
    },
  });
  const env = teamEnv(fake.url, options.env);
  await using lead = new CliProcess(
    [
      "-p",
      "start hank",
      "--workspace",
      workspace,
      "--permission-mode",
      "bypassPermissions",
      ...options.args ?? [],
    ],
    env,
  );
  running = () => lead.running;
  const out = await lead.output;
  const seen = async () =>
    `${out.stderr}\n${(await readLog(log)).map((e) => `${e.agent} ${e.type}`).join("\n")}`;
  assert.equal(out.code, 0, await seen());
  assert.equal(out.stdout.trim(), "Hank is done.", await seen());
  assert.equal(await Deno.readTextFile(join(workspace, "hank.txt")), "hi\n");
  // Nothing of the team outlives -p: the spare neither.
  assert.deepEqual(processesIn(workspace), []);
  return { events: await readLog(log), command, spares, workspace, host: new URL(fake.url).host };
}

/**
 * An agent's events as a cold and a warm start must both record them: the workspace, the model's
 * host and ids written alike, times, pids and digests (of requests that hold the session's id) left out.
 */
function comparable(run: TeamRun, agent: string): string[] {
  return run.events.filter((e) => e.agent === agent).map((e) => {
    const text = JSON.stringify(
      { type: e.type, data: e.data },
      (key, value) =>
        ["ts", "pid", "digest", "durationMs", "requestId", "messageId", "startedAt"].includes(key)
          ? undefined
          : value,
    )
      .replaceAll(run.workspace, "<workspace>")
      .replaceAll(run.host, "<model host>")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>");
    return text;
  });
}

/** Deno's cache folder as this process uses it. */
function denoDir(): string {
  return Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
}

async function tempDir(prefix: string): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix }));
}

Deno.test("a spawn takes the lead's spare when its flags are the teammate's, and the log is a cold spawn's event for event; the log replays", async () => {
  const warmDir = await tempDir("rein-spare-");
  const coldDir = await tempDir("rein-spare-");
  try {
    const warm = await teamOfOne(warmDir, { waitForSpare: true });
    const cold = await teamOfOne(coldDir, {
      waitForSpare: false,
      env: { REIN_TEAMMATE_SPARE: "0" },
    });
    // The warm teammate is the spare (started before the spawn, its command line says so); the
    // cold one is started for hank.
    assert.equal(warm.spares.length, 1);
    const warmPid = eventsOf(warm.events, "agent.started")[0]?.data.process.pid;
    assert.deepEqual(warm.spares, [warmPid]);
    assert.match(warm.command, / teammate --session spare --agent spare /);
    assert.deepEqual(cold.spares, []);
    assert.match(cold.command, / teammate --session [0-9a-f-]{36} --agent hank /);
    // The same events for each agent, and the same flags recorded (the workspace aside).
    assert.deepEqual(comparable(warm, "hank"), comparable(cold, "hank"));
    assert.deepEqual(comparable(warm, "lead"), comparable(cold, "lead"));
    // Its process's first event follows its start's record, as a cold start's does.
    for (const run of [warm, cold]) {
      const ofHank = run.events.filter((e) => e.agent === "hank").map((e) => e.type);
      assert.deepEqual(ofHank.slice(0, 3), ["agent.spawned", "agent.started", "user.prompted"]);
    }
    const replay = await runCli(["replay", join(warmDir, ".rein", "events.jsonl"), "--verify"]);
    assert.equal(replay.code, 0, `${replay.stdout}${replay.stderr}`);
    // rein team knows hank only: the spare is no teammate.
    const team = await runCli(["team", "--json", "--workspace", warmDir]);
    assert.equal(team.code, 0, team.stderr);
    const roster = JSON.parse(team.stdout) as { name: string }[];
    assert.deepEqual(roster.map((entry) => entry.name), ["hank"]);
  } finally {
    killProcessesIn(warmDir);
    killProcessesIn(coldDir);
    await Deno.remove(warmDir, { recursive: true });
    await Deno.remove(coldDir, { recursive: true });
  }
});

Deno.test("a burst of spawns in one answer takes the spares, three by default, each warm before the next starts while the lead waits; a fourth spawn starts cold", async () => {
  const workspace = await tempDir("rein-spare-burst-");
  const log = join(workspace, ".rein", "events.jsonl");
  const names = ["ann", "bo", "cy", "di"];
  let spares: number[] = [];
  let running = () => true;
  try {
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const last = lastMessageText(request);
        const teammate = beThere(request);
        if (teammate !== undefined) return teammate;
        if (last.startsWith("toolu_")) return message("Spawned.");
        return message(
          names.map((name) =>
            toolUse(`toolu_${name}`, "spawn_teammate", { name, prompt: "be there" })
          ),
        );
      },
      onRequest: async (request) => {
        const first = firstUserText(request.body?.messages ?? []);
        if (first !== "start four" || request.body?.messages?.length !== 1) return;
        // Held until three spares run and the third waits (warm): a fourth would have started
        // by then, at once, were more kept.
        const deadline = Date.now() + 60_000;
        while (sparesIn(workspace).length < 3) {
          if (!running()) throw new Error("The lead ended before three spares started");
          if (Date.now() > deadline) throw new Error(`Spares: ${sparesIn(workspace)}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        for (const pid of sparesIn(workspace)) await untilWaiting(pid);
        spares = sparesIn(workspace);
      },
    });
    await using lead = new CliProcess(
      ["-p", "start four", "--workspace", workspace, "--permission-mode", "bypassPermissions"],
      teamEnv(fake.url),
    );
    running = () => lead.running;
    const out = await lead.output;
    const events = await readLog(log);
    assert.equal(
      out.code,
      0,
      `${out.stderr}\n${events.map((e) => `${e.agent} ${e.type}`).join("\n")}`,
    );
    assert.equal(spares.length, 3);
    // The first three spawns of the answer are the three spares; the fourth is started for di.
    const started = eventsOf(events, "agent.started");
    const pidOf = (name: string) => started.find((e) => e.agent === name)?.data.process.pid;
    assert.deepEqual(names.slice(0, 3).map(pidOf).sort(), [...spares].sort());
    assert.ok(!spares.includes(pidOf("di")!));
    for (const name of names) {
      assert.ok(
        events.some((e) => e.agent === name && e.type === "agent.stopped"),
        `${name} did not stop`,
      );
    }
    assert.deepEqual(processesIn(workspace), []);
    const replay = await runCli(["replay", log, "--verify"]);
    assert.equal(replay.code, 0, `${replay.stdout}${replay.stderr}`);
  } finally {
    killProcessesIn(workspace);
    await Deno.remove(workspace, { recursive: true });
  }
});

/**
 * A teammate spawned with the prompt "be there": it answers "Here." and approves its shutdown.
 * Undefined for any other agent's request.
 */
function beThere(request: RecordedRequest): ReturnType<typeof message> | undefined {
  if (firstUserText(request.body?.messages ?? []) !== "be there") return undefined;
  if (lastMessageText(request).includes("shutdown_request")) {
    return message([toolUse("toolu_bye", "respond_shutdown", { approve: true })]);
  }
  return message("Here.");
}

/** The files under `dir`, relative, sorted (the log's own folder's names only). */
function filesIn(dir: string, under = ""): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(join(dir, under))) {
    const path = under === "" ? entry.name : `${under}/${entry.name}`;
    found.push(path);
    if (entry.isDirectory) found.push(...filesIn(dir, path));
  }
  return found.sort();
}

/**
 * `rein -p` with teams on whose lead runs one bash call and answers, spawning nobody; its second
 * request is answered once `hold` resolves. Returns the spares seen then, and the log's events.
 */
async function soloRun(
  workspace: string,
  options: { env?: Record<string, string>; args?: string[]; teams?: boolean },
): Promise<{ spares: number[]; events: Envelope[]; requests: number; stderr: string }> {
  let spares: number[] = [];
  await using fake = await startFakeAnthropic({
    script: (request) =>
      lastMessageText(request).startsWith("toolu_ls ")
        ? message("Nothing to do.")
        : message([toolUse("toolu_ls", "bash", { command: "true" })]),
    // By the lead's second request the spare, if any, has long been started (after its first).
    onRequest: (request) => {
      if (lastMessageText(request).startsWith("toolu_ls ")) spares = sparesIn(workspace);
    },
  });
  const env = options.teams === false
    ? { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test", ...options.env }
    : teamEnv(fake.url, options.env);
  const out = await runCli([
    "-p",
    "look",
    "--workspace",
    workspace,
    "--permission-mode",
    "bypassPermissions",
    ...options.args ?? [],
  ], { env });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout.trim(), "Nothing to do.");
  assert.deepEqual(processesIn(workspace), []);
  const events = await readLog(join(workspace, ".rein", "events.jsonl"));
  return { spares, events, requests: fake.requests.length, stderr: out.stderr };
}

Deno.test("a spare is started only with teams on, and not with REIN_TEAMMATE_SPARE=0 or the settings' teams.spare false; a -p run that spawns nobody ends it, and it appended, asked and wrote nothing", async () => {
  const dirs: string[] = [];
  try {
    const run = async (options: Parameters<typeof soloRun>[1]) => {
      const dir = await tempDir("rein-spare-solo-");
      dirs.push(dir);
      return { dir, ...await soloRun(dir, options) };
    };
    const settings = join(await tempDir("rein-spare-settings-"), "settings.json");
    dirs.push(join(settings, ".."));
    await Deno.writeTextFile(settings, JSON.stringify({ teams: { spare: false } }));
    const on = await run({});
    const envOff = await run({ env: { REIN_TEAMMATE_SPARE: "0" } });
    const settingsOff = await run({ args: ["--settings", settings] });
    const teamsOff = await run({ teams: false });
    // One at least (a next one starts once the first is warm, if the lead still waits then).
    assert.ok(on.spares.length >= 1);
    assert.deepEqual(envOff.spares, []);
    assert.deepEqual(settingsOff.spares, []);
    assert.deepEqual(teamsOff.spares, []);
    // The spare ended with -p (soloRun: no process left in the workspace), and did nothing: the
    // lead's events and requests alone, the same as without it, the same files.
    assert.ok(on.spares.every((pid) => !alive(pid)));
    const shape = (events: Envelope[]) => events.map((e) => [e.type, e.agent]);
    assert.deepEqual(shape(on.events), shape(envOff.events));
    assert.ok(on.events.every((e) => e.agent === "lead"));
    assert.equal(on.requests, envOff.requests);
    const named = (dir: string) =>
      filesIn(dir).map((path) => path.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/, "<id>"));
    assert.deepEqual(named(on.dir), named(envOff.dir));
  } finally {
    for (const dir of dirs) {
      killProcessesIn(dir);
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("the person's teams.spare counts though a trusted repository's settings set teams too (teams.enabled), and a value that is no count is told once, naming its file", async () => {
  const dirs: string[] = [];
  try {
    const run = async (spare: unknown) => {
      const top = await tempDir("rein-spare-own-");
      dirs.push(top);
      const [workspace, home] = [join(top, "ws"), join(top, "home")];
      await Deno.mkdir(join(workspace, ".claude"), { recursive: true });
      await Deno.mkdir(join(home, ".claude"), { recursive: true });
      const own = join(home, ".claude", "settings.json");
      await Deno.writeTextFile(own, JSON.stringify({ teams: { spare } }));
      // The repository's settings (trusted: --trust) set "teams" too, without "spare".
      await Deno.writeTextFile(
        join(workspace, ".claude", "settings.json"),
        JSON.stringify({ teams: { enabled: true } }),
      );
      const env = { HOME: home, DENO_DIR: denoDir() };
      return { own, ...await soloRun(workspace, { env, args: ["--trust"] }) };
    };
    const off = await run(false);
    assert.deepEqual(off.spares, []);
    const bad = await run("2");
    assert.ok(bad.spares.length >= 1, "three are kept when the value is no count");
    const told = `The setting "teams": {"spare": "2"} in "${bad.own}" is not a number of spare ` +
      "teammate processes (0 to 8), true or false: 3 are kept";
    assert.equal(bad.stderr.split(told).length - 1, 1, bad.stderr);
    assert.ok(!off.stderr.includes("spare"), off.stderr);
  } finally {
    for (const dir of dirs) {
      killProcessesIn(dir);
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("the lead's spare dies with the lead's process (SIGKILL)", async () => {
  const dir = await tempDir("rein-spare-kill-");
  let release: (() => void) | undefined;
  const held = new Promise<void>((resolve) => release = resolve);
  try {
    await using fake = await startFakeAnthropic({
      script: () => message("Never seen."),
      // The lead's request is held until the end: it waits while its spare does.
      onRequest: () => held,
    });
    try {
      await using lead = new CliProcess(["-p", "wait", "--workspace", dir], teamEnv(fake.url));
      const spare = await spareIn(dir, () => lead.running);
      const out = await lead.kill();
      assert.equal(out.signal, "SIGKILL");
      assert.ok(await ended(spare), `the spare ${spare} outlived the lead`);
      assert.deepEqual(processesIn(dir), []);
    } finally {
      // Before the fake closes, which waits for what it holds.
      release?.();
    }
  } finally {
    killProcessesIn(dir);
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * `rein teammate` started as a spare (the environment says so), its stdin a pipe held here;
 * `denoFlags` go before rein's module.
 */
function spareProcess(
  workspace: string,
  url: string,
  denoFlags: readonly string[] = [],
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      ...denoFlags,
      CLI,
      "teammate",
      "--session",
      "spare",
      "--agent",
      "spare",
      "--workspace",
      workspace,
    ],
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      ...teamEnv(url),
      REIN_TEAMMATE_ASSIGNMENT: "stdin",
    },
    clearEnv: true,
    cwd: workspace,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test("a spare whose pipe ends before its assignment exits 0 having written and asked nothing; a line that is no assignment, 1", async () => {
  const dir = await tempDir("rein-spare-idle-");
  try {
    await using fake = await startFakeAnthropic({ script: () => message("Never.") });
    const idle = spareProcess(dir, fake.url);
    await idle.stdin.close();
    const out = await idle.output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.deepEqual(filesIn(dir), []);

    const bad = spareProcess(dir, fake.url);
    const writer = bad.stdin.getWriter();
    await writer.write(new TextEncoder().encode('{"session": "s", "agent": "-x"}\n'));
    await writer.close();
    const refused = await bad.output();
    assert.equal(refused.code, 1);
    assert.match(new TextDecoder().decode(refused.stderr), /Not a teammate's assignment/);
    assert.deepEqual(filesIn(dir), []);
    assert.equal(fake.requests.length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Wait (60 s at most) until process `pid` waits: for 300 ms, under 10 ms of CPU time each 100 ms
 * (a profiler's sampling uses a little).
 */
async function untilWaiting(pid: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  const used = () => Number(Deno.readTextFileSync(`/proc/${pid}/schedstat`).split(" ")[0]);
  let last = used();
  let quiet = 0;
  while (quiet < 3) {
    if (Date.now() > deadline) throw new Error(`Process ${pid} never waited`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = used();
    quiet = now - last < 10e6 ? quiet + 1 : 0;
    last = now;
  }
}

/** A CPU profile (`deno run --cpu-prof`): the functions it sampled. */
interface CpuProfile {
  nodes: { callFrame: { functionName: string; url: string } }[];
}

Deno.test("a spare pays before its assignment what any teammate's start pays: Node's timers and crypto modules and the model SDK are loaded, and a session in memory builds its first request, while it waits; it still writes, sends and asks nothing", async () => {
  const dir = await tempDir("rein-spare-warm-");
  const profiles = await tempDir("rein-spare-profile-");
  try {
    await using fake = await startFakeAnthropic({ script: () => message("Never.") });
    // Sampled every 100 µs until it exits: its pipe ends once it waits, so all it ran is its
    // wait's.
    const spare = spareProcess(dir, fake.url, [
      "--cpu-prof",
      `--cpu-prof-dir=${profiles}`,
      "--cpu-prof-interval=100",
    ]);
    // It says it is warm once its warm-up has run whole (a CPU that is still could be one it
    // waits for, on a loaded machine).
    const reader = spare.stdout.getReader();
    const said = await reader.read();
    reader.releaseLock();
    assert.equal(new TextDecoder().decode(said.value), READY_LINE);
    await spare.stdin.close();
    const out = await spare.output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const [file] = [...Deno.readDirSync(profiles)].map((entry) => join(profiles, entry.name));
    assert.ok(file !== undefined, "no CPU profile written");
    const { nodes } = JSON.parse(await Deno.readTextFile(file)) as CpuProfile;
    const scripts = new Set(nodes.map((node) => node.callFrame.url));
    const functions = new Set(nodes.map((node) => node.callFrame.functionName));
    // A module is seen in a sample of its own code or of Deno's that it loads (its own top level
    // may run between two samples).
    for (const module of ["timers", "crypto"]) {
      const its = [
        `node:${module}`,
        `ext:deno_node/${module}.`,
        `ext:deno_node/internal/${module}`,
      ];
      assert.ok(
        [...scripts].some((url) => its.some((prefix) => url.startsWith(prefix))),
        `node:${module} was not loaded`,
      );
    }
    // The SDK's client was built and its request stopped before it was sent.
    assert.ok(
      ["makeRequest", "buildRequest", "buildHeaders", "_createMessage", "startMessagesStreamSpan"]
        .some((name) => functions.has(name)),
      "the SDK built no request",
    );
    // The rehearsal: a harness in memory, its session's first request assembled.
    assert.ok(functions.has("createHarness"), "no harness was built");
    assert.ok(
      ["assembleRequest", "buildSystemPrompt", "nextRequest", "toolPool", "recordRequest"].some((
        name,
      ) => functions.has(name)),
      "no request was assembled",
    );
    assert.deepEqual(filesIn(dir), []);
    assert.equal(fake.requests.length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(profiles, { recursive: true });
  }
});

Deno.test("flags changed since the spare started (the person's settings now name a marketplace folder) → the teammate starts cold, with the new flags", async () => {
  const top = await tempDir("rein-spare-flags-");
  const workspace = join(top, "ws");
  const home = join(top, "home");
  const market = join(top, "market");
  await Deno.mkdir(workspace);
  await Deno.mkdir(join(home, ".claude"), { recursive: true });
  await Deno.mkdir(market);
  const log = join(workspace, ".rein", "events.jsonl");
  let command = "";
  let spare = 0;
  let running = () => true;
  try {
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const teammate = beThere(request);
        if (teammate !== undefined) return teammate;
        if (lastMessageText(request).startsWith("toolu_ivy ")) return message("Spawned.");
        return message([
          toolUse("toolu_ivy", "spawn_teammate", { name: "ivy", prompt: "be there" }),
        ]);
      },
      onRequest: async (request) => {
        const first = firstUserText(request.body?.messages ?? []);
        if (first === "start ivy" && request.body?.messages?.length === 1) {
          spare = await spareIn(workspace, running);
          // A teammate started now may read the marketplace the settings name: not the spare.
          await Deno.writeTextFile(
            join(home, ".claude", "settings.json"),
            JSON.stringify({
              extraKnownMarketplaces: { local: { source: { source: "directory", path: market } } },
            }),
          );
        }
        if (first === "be there" && request.body?.messages?.length === 1) {
          const started = await untilLogged(
            log,
            "ivy's start",
            (events) => eventsOf(events, "agent.started")[0],
          );
          command = Deno.readTextFileSync(`/proc/${started.data.process.pid}/cmdline`)
            .replaceAll("\0", " ");
        }
      },
    });
    await using lead = new CliProcess(
      ["-p", "start ivy", "--workspace", workspace],
      // Deno's cache where it is, whatever HOME says.
      teamEnv(fake.url, { HOME: home, DENO_DIR: denoDir() }),
    );
    running = () => lead.running;
    const out = await lead.output;
    assert.equal(out.code, 0, out.stderr);
    const [started] = eventsOf(await readLog(log), "agent.started");
    assert.match(command, / teammate --session [0-9a-f-]{36} --agent ivy /);
    assert.ok(started !== undefined && started.data.process.pid !== spare);
    assert.ok(
      started.data.process.flags.some((flag) =>
        flag.startsWith("--allow-read=") && flag.split(/[=,]/).includes(market)
      ),
      started.data.process.flags.join(" "),
    );
    assert.ok(await ended(spare));
    assert.deepEqual(processesIn(workspace), []);
  } finally {
    killProcessesIn(workspace);
    await Deno.remove(top, { recursive: true });
  }
});
