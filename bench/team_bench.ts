/**
 * Issue 23's numbers for teams: `deno bench -A bench/team_bench.ts`. The lead is the real CLI
 * started through the launcher (`sh cli/launch.sh -p …`, from source; with `--entry` the bundle
 * `deno task install` would install, built here), against the fake Anthropic server in this
 * process; its teammates are the `rein teammate` processes it starts itself (through the
 * launcher's plan, with their flags narrowed), from source or from the bundle as the lead runs.
 *
 * - **team of one** (per launch, `REIN_TEAM_BENCH_RUNS` timed runs, default 5): the lead spawns
 *   one teammate, waits until it is idle, then mails it `MAILS` times, each once the teammate is
 *   idle again (100 ms after its turn ended). Each launch twice: **spare**, the lead's warm spares
 *   (cli/teammate_spare.ts, three by default) one of which the spawn takes (the lead's first
 *   answer is held until they have all loaded: each one's CPU time still (< 3 ms) for 100 ms, as
 *   a model's first answer takes seconds; the run fails unless the teammate is a spare), and
 *   **cold** (`REIN_TEAMMATE_SPARE=0`: the teammate's process is started for it). Measured per
 *   run:
 *   - **spawn → first model request**: the `ts` of the teammate's `agent.spawned` (recorded just
 *     before its process is started or the spare taken) to the fake's receipt of the teammate's
 *     first request. Target ≤ 150 ms. Also shown: `agent.started` (its process started, or the
 *     spare's start recorded) to the same request.
 *   - beside it, the floor (bench/_floor_agent.ts, a minimal `fetch` agent, launched just before
 *     the run → its first request) and the lead's own launch → first model request in the same
 *     run (the launcher started → the fake's receipt of the lead's first request): what a rein
 *     process's start costs on the machine at that moment.
 *   - with the spare, the CPU time the teammate's process used from its assignment to that
 *     request (`/proc/<pid>/schedstat`, read while it waited and at the request): what a loaded
 *     machine's wait for a CPU does not stretch.
 *   - **teammate peak RSS**: `VmHWM` (the kernel's high-water mark of resident memory) of the
 *     teammate's process from `/proc/<pid>/status`, polled every 10 ms until it exits. Target
 *     ≤ 70 MB. Beside it, the spare's `VmHWM` while it waits (loaded, not assigned).
 *   - **mail to an idle teammate**: a `mail.sent`'s `ts` in the lead's process to the fake's
 *     receipt of the teammate's request carrying it. Target p50 ≤ 100 ms.
 * - **burst** (per launch, `REIN_TEAM_BENCH_RUNS` runs, spare and cold as above): the lead spawns
 *   three teammates in one answer (the spares loaded first), each answers once; each one's
 *   spawn → first model request (target ≤ 150 ms each), the slowest of each burst, and each one's
 *   peak RSS.
 * - **lead + 8 teammates × 20 tool calls** (one timed run, the spares on as by default, not
 *   waited for: the first spawn takes the first spare, loading or not, the others start cold):
 *   the lead spawns 8 teammates in one answer; each makes 20 bash calls (`echo i >> <name>.txt`)
 *   one after another, then answers. Checked: `-p` exits 0, every teammate finished, each of its
 *   files holds its 20 lines, every call was requested and completed exactly once, the log's seqs
 *   run 1..N without a gap or a repeat (no append lost or doubled under the lock), and
 *   `replay --verify` matches every event.
 *   Reported: the peak RSS of the lead and of each teammate, and their total.
 *
 * The bench's own time is each whole run (a team cannot be timed from outside one process); the
 * numbers above are printed in a summary when the bench process unloads, from the timed runs only
 * (`deno bench` makes two untimed calls of each bench first). Numbers are in ms and MB (2^20
 * bytes), with min, p50 and max over the runs.
 *
 * @module
 */
import { lastMessageText } from "../testing/scenarios.ts";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { firstUserText, toolResultCount } from "../testing/scenarios.ts";
import { processesIn } from "../testing/tool_helpers.ts";
import { buildBundle } from "./_bundle.ts";
import { DEFAULT_SPARES } from "../cli/teammate_spare.ts";

const ROOT = new URL("../", import.meta.url);
const LAUNCHER = new URL("cli/launch.sh", ROOT).pathname;
/** Calls `deno bench` makes before the timed ones, whatever `warmup` says. */
const UNTIMED_CALLS = 2;
const RUNS = Number(Deno.env.get("REIN_TEAM_BENCH_RUNS") ?? 5);
/** Mails to the idle teammate per run of the team of one. */
const MAILS = 10;
const TEAMMATES = 8;
const CALLS = 20;
const TARGETS = { peakMb: 70, spawnMs: 150, mailP50Ms: 100 };

/** How the lead is started: the launcher's arguments before rein's own. */
interface Launch {
  name: string;
  args: string[];
  /** Whether its spawn takes a warm spare (else `REIN_TEAMMATE_SPARE=0`). */
  spare: boolean;
}

/** What one run of the team of one measured. */
interface OneStats {
  /** A minimal `fetch` agent's launch → its first request, just before the run (the floor). */
  floorMs: number;
  /** The lead's own launch → its first model request, in the same run. */
  leadMs: number;
  spawnMs: number;
  processMs: number;
  peakMb: number;
  /** The spare's peak resident memory while it waited (spare runs only). */
  spareMb: number | undefined;
  /**
   * The CPU time the spare used from its assignment to its first request (spare runs only): from
   * `/proc/<pid>/schedstat` read while it waited (still) and when the fake received that request.
   * What a loaded machine's wait for a CPU does not stretch.
   */
  spareCpuMs: number | undefined;
  mailMs: number[];
}

/** What one run of the burst measured: per teammate, in the order of the answer's spawns. */
interface BurstStats {
  /** Each teammate's spawn → its first model request. */
  spawnMs: number[];
  /** Each teammate's process's peak resident memory. */
  peakMb: number[];
  /** Each one's `agent.spawned` after the first spawn's: how long the lead took to come to it. */
  afterFirstMs: number[];
  /**
   * With the spares, the CPU time each teammate's process used from its assignment to its first
   * request (as in the team of one).
   */
  cpuMs: number[];
}

/** What the run of the big team measured. */
interface BigStats {
  leadMb: number;
  teammateMb: number[];
  events: number;
  totalMs: number;
}

const one = new Map<string, OneStats[]>();
const bursts = new Map<string, BurstStats[]>();
const big = new Map<string, BigStats>();

const BUNDLE = await buildBundle();
const LAUNCHES: Launch[] = [
  { name: "from source", args: [LAUNCHER], spare: true },
  { name: "installed", args: [LAUNCHER, "--entry", BUNDLE], spare: true },
];
/** The team of one's launches: each with the spare and cold, side by side. */
const ONE_LAUNCHES: Launch[] = LAUNCHES.flatMap((launch) => [
  { ...launch, name: `${launch.name}, spare` },
  { ...launch, name: `${launch.name}, cold`, spare: false },
]);

for (const launch of ONE_LAUNCHES) {
  let calls = 0;
  Deno.bench({
    name: `team of one (spawn, RSS, ${MAILS} mails to it idle), ${launch.name}`,
    group: "team of one",
    n: RUNS,
    warmup: 1,
    async fn() {
      const stats = await teamOfOne(launch);
      if (++calls > UNTIMED_CALLS) one.set(launch.name, [...one.get(launch.name) ?? [], stats]);
    },
  });
}
for (const launch of ONE_LAUNCHES) {
  let calls = 0;
  Deno.bench({
    name: `burst of ${DEFAULT_SPARES} spawns in one answer, ${launch.name}`,
    group: "burst",
    n: RUNS,
    warmup: 1,
    async fn() {
      const stats = await burst(launch);
      if (++calls > UNTIMED_CALLS) {
        bursts.set(launch.name, [...bursts.get(launch.name) ?? [], stats]);
      }
    },
  });
}
for (const launch of LAUNCHES) {
  let calls = 0;
  Deno.bench({
    name: `lead + ${TEAMMATES} teammates × ${CALLS} tool calls, ${launch.name}`,
    group: "big team",
    n: 1,
    warmup: 1,
    async fn() {
      const stats = await bigTeam(launch);
      if (++calls > UNTIMED_CALLS) big.set(launch.name, stats);
    },
  });
}

globalThis.addEventListener("unload", () => {
  for (const launch of ONE_LAUNCHES) {
    const runs = one.get(launch.name) ?? [];
    if (runs.length > 0) console.log(`\nteam of one, ${launch.name}\n${oneSummary(runs)}`);
  }
  for (const launch of ONE_LAUNCHES) {
    const runs = bursts.get(launch.name) ?? [];
    if (runs.length > 0) {
      console.log(`\nburst of ${DEFAULT_SPARES} spawns, ${launch.name}\n${burstSummary(runs)}`);
    }
  }
  for (const launch of LAUNCHES) {
    const stats = big.get(launch.name);
    if (stats) console.log(`\nlead + ${TEAMMATES} teammates, ${launch.name}\n${bigSummary(stats)}`);
  }
});

/** The team of one: spawn latency, the teammate's peak memory, mail to it while idle. */
async function teamOfOne(launch: Launch): Promise<OneStats> {
  const floorMs = await floorLaunch();
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-bench-" }));
  const log = join(workspace, ".rein", "events.jsonl");
  const idle = (events: Envelope[], turns: number) =>
    events.filter((e) => e.agent === "hank" && e.type === "turn.ended").length >= turns;
  let spares: SpareSeen[] = [];
  let spareCpuNs: number | undefined;
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const messages = request.body?.messages ?? [];
      const last = lastMessageText(request);
      if (firstUserText(messages) === "stand by") {
        if (last.includes("shutdown_request")) {
          return message([toolUse("toolu_bye", "respond_shutdown", { approve: true })]);
        }
        return message(messages.length === 1 ? "Ready." : "Got it.");
      }
      const sent = last.match(/^toolu_ping_(\d+) /);
      if (last.startsWith("toolu_hank ") || sent) {
        const next = sent ? Number(sent[1]) + 1 : 1;
        if (next > MAILS) return message("Done.");
        return message([
          toolUse(`toolu_ping_${next}`, "send_message", { to: "hank", content: `ping ${next}` }),
        ]);
      }
      if (last.includes("shutdown_approved")) return message("Done.");
      return message([
        toolUse("toolu_hank", "spawn_teammate", { name: "hank", prompt: "stand by" }),
      ]);
    },
    // The lead mails hank only once he is idle: his turn for the previous mail has ended.
    onRequest: async (request) => {
      const last = lastMessageText(request);
      // The teammate's first request: the CPU its process has used by now.
      const messages = request.body?.messages ?? [];
      if (spares.length > 0 && spareCpuNs === undefined && firstUserText(messages) === "stand by") {
        // The spare taken: the one whose process has asked (its pid is in the log by now).
        const started = (await readLog(log)).find((e) =>
          e.type === "agent.started" && e.agent === "hank"
        );
        const pid = started && "process" in started.data ? started.data.process.pid : 0;
        spareCpuNs = spares.some((seen) => seen.pid === pid) ? cpuNs(pid) : undefined;
      }
      // The lead's first answer, with the spares on, once they have all loaded.
      if (launch.spare && firstUserText(request.body?.messages ?? []) === "team of one") {
        if (request.body?.messages?.length === 1) spares = await loadedSpares(workspace);
      }
      const sent = last.match(/^toolu_ping_(\d+) /);
      if (!last.startsWith("toolu_hank ") && !sent) return;
      const turns = sent ? Number(sent[1]) + 1 : 1;
      await untilLogged(log, (events) => idle(events, turns) || undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    },
  });
  try {
    const run = await runTeam(launch, fake.url, workspace, "team of one");
    const events = run.events;
    const spawned = events.find((e) => e.type === "agent.spawned" && e.agent === "hank");
    const started = events.find((e) => e.type === "agent.started" && e.agent === "hank");
    const first = fake.requests.find((r) => firstUserText(r.body?.messages ?? []) === "stand by");
    if (!spawned || !started || !first) throw new Error("The teammate never asked the model");
    const mailMs = events.flatMap((e) => {
      if (e.type !== "mail.sent" || !e.data.content.startsWith("ping ")) return [];
      const carried = fake.requests.find((r) =>
        firstUserText(r.body?.messages ?? []) === "stand by" &&
        lastMessageText(r).includes(`>\n${e.data.content}\n</teammate-message>`)
      );
      return carried ? [carried.receivedAtEpochMs - Date.parse(e.ts)] : [];
    });
    if (mailMs.length !== MAILS) throw new Error(`${mailMs.length} of ${MAILS} mails arrived`);
    const pid = "process" in started.data ? started.data.process.pid : 0;
    const spare = spares.find((seen) => seen.pid === pid);
    if (launch.spare && spare === undefined) throw new Error("The spawn did not take a spare");
    const lead = fake.requests[0]!;
    return {
      floorMs,
      leadMs: lead.receivedAtEpochMs - run.launchedAt,
      spawnMs: first.receivedAtEpochMs - Date.parse(spawned.ts),
      processMs: first.receivedAtEpochMs - Date.parse(started.ts),
      peakMb: (run.peakKb.get(pid) ?? 0) / 1024,
      spareMb: spare === undefined ? undefined : spare.peakKb / 1024,
      spareCpuMs: spare === undefined || spareCpuNs === undefined
        ? undefined
        : (spareCpuNs - spare.cpuNs) / 1e6,
      mailMs,
    };
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
}

/**
 * The burst: the lead spawns {@link DEFAULT_SPARES} teammates in one answer (with the spares on,
 * once they have all loaded: a model's answer takes seconds), each answers once and is shut down
 * at `-p`'s end. Each one's spawn → first request, and its peak memory.
 */
async function burst(launch: Launch): Promise<BurstStats> {
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-bench-" }));
  const names = Array.from({ length: DEFAULT_SPARES }, (_, i) => `b${i + 1}`);
  let spares: SpareSeen[] = [];
  const log = join(workspace, ".rein", "events.jsonl");
  /** Each spare's CPU time when the teammate it became first asked, by pid. */
  const cpuAtRequest = new Map<number, number>();
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const messages = request.body?.messages ?? [];
      const as = firstUserText(messages).match(/^stand by as (b\d+)$/);
      if (as) {
        if (lastMessageText(request).includes("shutdown_request")) {
          return message([toolUse(`toolu_${as[1]}_bye`, "respond_shutdown", { approve: true })]);
        }
        return message("Ready.");
      }
      if (messages.length === 1) {
        return message(
          names.map((name) =>
            toolUse(`toolu_${name}`, "spawn_teammate", { name, prompt: `stand by as ${name}` })
          ),
        );
      }
      return message("Spawned.");
    },
    onRequest: async (request) => {
      const messages = request.body?.messages ?? [];
      if (launch.spare && firstUserText(messages) === "burst" && messages.length === 1) {
        spares = await loadedSpares(workspace);
      }
      const as = firstUserText(messages).match(/^stand by as (b\d+)$/);
      if (spares.length > 0 && as && messages.length === 1) {
        const started = (await readLog(log)).find((e) =>
          e.type === "agent.started" && e.agent === as[1]
        );
        const pid = started && "process" in started.data ? started.data.process.pid : 0;
        if (spares.some((seen) => seen.pid === pid)) cpuAtRequest.set(pid, cpuNs(pid));
      }
    },
  });
  try {
    const run = await runTeam(launch, fake.url, workspace, "burst");
    const stats: BurstStats = { spawnMs: [], peakMb: [], afterFirstMs: [], cpuMs: [] };
    let firstSpawn: number | undefined;
    for (const name of names) {
      const of = (type: string) => run.events.find((e) => e.type === type && e.agent === name);
      const spawned = of("agent.spawned");
      const started = of("agent.started");
      const first = fake.requests.find((r) =>
        firstUserText(r.body?.messages ?? []) === `stand by as ${name}`
      );
      if (!spawned || !started || !first) throw new Error(`${name} never asked the model`);
      const pid = "process" in started.data ? started.data.process.pid : 0;
      if (launch.spare && !spares.some((seen) => seen.pid === pid)) {
        throw new Error(`${name}'s spawn did not take a spare`);
      }
      stats.spawnMs.push(first.receivedAtEpochMs - Date.parse(spawned.ts));
      stats.peakMb.push((run.peakKb.get(pid) ?? 0) / 1024);
      firstSpawn ??= Date.parse(spawned.ts);
      stats.afterFirstMs.push(Date.parse(spawned.ts) - firstSpawn);
      const spare = spares.find((seen) => seen.pid === pid);
      const at = cpuAtRequest.get(pid);
      if (spare && at !== undefined) stats.cpuMs.push((at - spare.cpuNs) / 1e6);
    }
    return stats;
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
}

/** The big team: all finish, every append once, the log replays; memory of everyone. */
async function bigTeam(launch: Launch): Promise<BigStats> {
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-bench-" }));
  const names = Array.from({ length: TEAMMATES }, (_, i) => `t${i + 1}`);
  await using fake = await startFakeAnthropic({
    retainBodies: false,
    script: (request) => {
      const messages = request.body?.messages ?? [];
      const work = firstUserText(messages).match(/^work as (t\d+)$/);
      const last = lastMessageText(request);
      if (work) {
        const name = work[1]!;
        if (last.includes("shutdown_request")) {
          return message([toolUse(`toolu_${name}_bye`, "respond_shutdown", { approve: true })]);
        }
        const done = toolResultCount(request.body);
        if (done >= CALLS) return message(`Finished ${name}.`);
        return message([
          toolUse(`toolu_${name}_${done + 1}`, "bash", {
            command: `echo ${done + 1} >> ${name}.txt`,
          }),
        ]);
      }
      if (messages.length === 1) {
        return message(
          names.map((name) =>
            toolUse(`toolu_spawn_${name}`, "spawn_teammate", { name, prompt: `work as ${name}` })
          ),
        );
      }
      return message("The team is at work.");
    },
  });
  try {
    const started = performance.now();
    const run = await runTeam(launch, fake.url, workspace, "big team", [
      "--permission-mode",
      "bypassPermissions",
    ]);
    const totalMs = performance.now() - started;
    const events = run.events;
    // No append lost or doubled: seqs 1..N, each once.
    events.forEach((e, i) => {
      if (e.seq !== i + 1) throw new Error(`Event ${i + 1} of the log has seq ${e.seq}`);
    });
    for (const name of names) {
      const bash = (e: Envelope) => e.agent === name && "name" in e.data && e.data.name === "bash";
      const requested = events.filter((e) => e.type === "tool.requested" && bash(e));
      const completed = events.filter((e) => e.type === "tool.completed" && bash(e));
      const ids = new Set(requested.map((e) => "callId" in e.data ? e.data.callId : ""));
      if (requested.length !== CALLS || completed.length !== CALLS || ids.size !== CALLS) {
        throw new Error(`${name}: ${requested.length} calls requested, ${completed.length} done`);
      }
      const finished = events.some((e) =>
        e.type === "model.responded" && e.agent === name &&
        JSON.stringify(e.data).includes(`Finished ${name}.`)
      );
      if (!finished) throw new Error(`${name} did not finish`);
      const lines = (await Deno.readTextFile(join(workspace, `${name}.txt`))).trim().split("\n");
      const expected = Array.from({ length: CALLS }, (_, i) => String(i + 1));
      if (lines.join(",") !== expected.join(",")) throw new Error(`${name}.txt: ${lines}`);
    }
    // Replayed by the same rein that ran (the bundle is built once, before the tree may change).
    const replay = await new Deno.Command("sh", {
      args: [...launch.args, "replay", run.log, "--verify"],
      env: { REIN_DENO: Deno.execPath() },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const said = new TextDecoder().decode(replay.stdout);
    if (
      !replay.success || !said.includes(`: ${events.length} events replayed, all match the log`)
    ) {
      throw new Error(`replay --verify: ${said}${new TextDecoder().decode(replay.stderr)}`);
    }
    const teammates = events.filter((e) => e.type === "agent.started");
    return {
      leadMb: (run.peakKb.get(run.pid) ?? 0) / 1024,
      teammateMb: teammates.map((e) =>
        (run.peakKb.get("process" in e.data ? e.data.process.pid : 0) ?? 0) / 1024
      ),
      events: events.length,
      totalMs,
    };
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
}

/**
 * The floor: bench/_floor_agent.ts (a minimal agent of plain `fetch`, as bench/agent_bench.ts
 * runs it) started → the fake's receipt of its first request: what starting Deno and making one
 * request costs on this machine now.
 */
async function floorLaunch(): Promise<number> {
  const workspace = await Deno.makeTempDir({ prefix: "rein-team-bench-floor-" });
  await using fake = await startFakeAnthropic({ script: () => message("Hi.") });
  try {
    const launchedAt = Date.now();
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        "--quiet",
        "--v8-flags=--max-semi-space-size=1",
        new URL("bench/_floor_agent.ts", ROOT).pathname,
        "agent",
        "-p",
        "hi",
        "--workspace",
        workspace,
      ],
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-fake-bench-key" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    const first = fake.requests[0];
    if (!out.success || first === undefined) {
      throw new Error(`The floor agent failed: ${new TextDecoder().decode(out.stderr)}`);
    }
    return first.receivedAtEpochMs - launchedAt;
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
}

/** A spare process as seen once loaded: its pid, peak resident memory and CPU time used then. */
interface SpareSeen {
  pid: number;
  peakKb: number;
  cpuNs: number;
}

/**
 * The lead's {@link DEFAULT_SPARES} spares in `workspace` once they have all loaded: that many
 * processes whose command line names the spare, each having used under 3 ms of CPU time in the
 * last 100 ms (a profiler's sampling uses a little; the lead starts each next one once the one
 * before has loaded).
 */
async function loadedSpares(workspace: string): Promise<SpareSeen[]> {
  const deadline = Date.now() + 60_000;
  /** Each spare's CPU time as polled, with when. */
  const polled = new Map<number, { at: number; ns: number }[]>();
  const still = (pid: number) => {
    const seen = polled.get(pid) ?? [];
    const last = seen.at(-1);
    const before = seen.findLast((poll) => last !== undefined && last.at - poll.at >= 100);
    return last !== undefined && before !== undefined && last.ns - before.ns < 3e6;
  };
  while (Date.now() < deadline) {
    const pids = processesIn(workspace).filter((p) => p.command.includes(" --agent spare "))
      .map((p) => p.pid);
    for (const pid of pids) {
      const ns = await Deno.readTextFile(`/proc/${pid}/schedstat`).then(
        (text) => Number(text.split(" ")[0]),
        () => NaN,
      );
      polled.set(pid, [...polled.get(pid) ?? [], { at: performance.now(), ns }].slice(-30));
    }
    if (pids.length >= DEFAULT_SPARES && pids.every(still)) {
      return await Promise.all(pids.map(async (pid) => {
        const status = await Deno.readTextFile(`/proc/${pid}/status`);
        return { pid, peakKb: kbField(status, "VmHWM"), cpuNs: cpuNs(pid) };
      }));
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("The spares never all loaded");
}

/** A finished team run: its log, the lead's pid, and each process's peak resident memory. */
interface TeamRun {
  /** `Date.now()` just before the lead's process was started. */
  launchedAt: number;
  log: string;
  events: Envelope[];
  pid: number;
  peakKb: Map<number, number>;
}

/**
 * Run `rein -p PROMPT` in `workspace` through the launcher, polling the peak memory of the lead's
 * process and of every teammate process its log names until each has exited. Throws unless it
 * exits 0.
 */
async function runTeam(
  launch: Launch,
  url: string,
  workspace: string,
  prompt: string,
  extra: string[] = [],
): Promise<TeamRun> {
  const log = join(workspace, ".rein", "events.jsonl");
  const launchedAt = Date.now();
  const child = new Deno.Command("sh", {
    args: [...launch.args, "-p", prompt, "--workspace", workspace, ...extra],
    env: {
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: "sk-fake-bench-key",
      CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1",
      REIN_DENO: Deno.execPath(),
      REIN_SHUTDOWN_TIMEOUT_MS: "5000",
      ...launch.spare ? {} : { REIN_TEAMMATE_SPARE: "0" },
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const peakKb = new Map<number, number>();
  let done = false;
  const output = child.output().finally(() => done = true);
  const pids = new Set([child.pid]);
  let looked = 0;
  while (!done) {
    if (performance.now() - looked > 50) {
      looked = performance.now();
      for (const e of await readLog(log)) {
        if (e.type === "agent.started" && "process" in e.data) pids.add(e.data.process.pid);
      }
    }
    for (const pid of pids) {
      const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
      peakKb.set(pid, Math.max(peakKb.get(pid) ?? 0, kbField(status, "VmHWM")));
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const out = await output;
  if (!out.success) {
    throw new Error(`rein -p exited ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return { launchedAt, log, events: await readLog(log), pid: child.pid, peakKb };
}

function summaryRow(label: string, values: number[], target?: number): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const cells = [sorted[0]!, at(0.5), sorted.at(-1)!].map((v) => v.toFixed(1).padStart(8));
  const verdict = target === undefined
    ? ""
    : `  target ≤ ${target}: ${at(0.5) <= target ? "met" : "MISSED"}`;
  return `${label.padEnd(42)}${cells.join("")}${verdict}`;
}

function oneSummary(runs: OneStats[]): string {
  return [
    `${"".padEnd(42)}${["min", "p50", "max"].map((h) => h.padStart(8)).join("")}`,
    summaryRow("floor: launch → first request (ms)", runs.map((r) => r.floorMs)),
    summaryRow("lead: launch → first model request (ms)", runs.map((r) => r.leadMs)),
    summaryRow("spawn → first model request (ms)", runs.map((r) => r.spawnMs), TARGETS.spawnMs),
    summaryRow("  its process's start → request (ms)", runs.map((r) => r.processMs)),
    ...runs.every((r) => r.spareCpuMs !== undefined)
      ? [summaryRow("  its CPU, assignment → request (ms)", runs.map((r) => r.spareCpuMs ?? 0))]
      : [],
    summaryRow("teammate peak RSS (MB)", runs.map((r) => r.peakMb), TARGETS.peakMb),
    ...runs.every((r) => r.spareMb !== undefined)
      ? [summaryRow("  the spare's, waiting (MB)", runs.map((r) => r.spareMb ?? 0))]
      : [],
    summaryRow(
      `mail to the idle teammate (ms, ${runs.length * MAILS})`,
      runs.flatMap((r) => r.mailMs),
      TARGETS.mailP50Ms,
    ),
  ].join("\n");
}

function burstSummary(runs: BurstStats[]): string {
  return [
    `${"".padEnd(42)}${["min", "p50", "max"].map((h) => h.padStart(8)).join("")}`,
    summaryRow(
      `spawn → first model request (ms, ${runs.length * DEFAULT_SPARES})`,
      runs.flatMap((r) => r.spawnMs),
      TARGETS.spawnMs,
    ),
    summaryRow("  the slowest of each burst (ms)", runs.map((r) => Math.max(...r.spawnMs))),
    summaryRow("  its spawn after the burst's first (ms)", runs.flatMap((r) => r.afterFirstMs)),
    ...runs.every((r) => r.cpuMs.length > 0)
      ? [summaryRow("  its CPU, assignment → request (ms)", runs.flatMap((r) => r.cpuMs))]
      : [],
    summaryRow("teammate peak RSS (MB)", runs.flatMap((r) => r.peakMb), TARGETS.peakMb),
  ].join("\n");
}

function bigSummary(stats: BigStats): string {
  const total = stats.leadMb + stats.teammateMb.reduce((a, b) => a + b, 0);
  return [
    `all ${TEAMMATES} finished their ${CALLS} calls; ${stats.events} events, seqs 1..${stats.events} once each; replay --verify matches`,
    `whole run ${(stats.totalMs / 1000).toFixed(1)} s`,
    `lead peak RSS ${stats.leadMb.toFixed(1)} MB`,
    summaryRow("teammate peak RSS (MB)", stats.teammateMb, TARGETS.peakMb),
    `total peak RSS (lead + ${stats.teammateMb.length}) ${total.toFixed(1)} MB`,
  ].join("\n");
}

/** The events of the JSONL log at `log` as they are now: whole lines only. */
async function readLog(log: string): Promise<Envelope[]> {
  const text = await Deno.readTextFile(log).catch(() => "");
  return text.split("\n").slice(0, -1).map((line) => JSON.parse(line));
}

/** Wait (60 s at most) until the log at `log` holds what `found` picks. */
async function untilLogged<T>(log: string, found: (events: Envelope[]) => T | undefined) {
  const deadline = Date.now() + 60_000;
  while (found(await readLog(log)) === undefined) {
    if (Date.now() > deadline) throw new Error("Timed out waiting for the log");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The CPU time process `pid` has used, in nanoseconds (`/proc/<pid>/schedstat`'s first field). */
function cpuNs(pid: number): number {
  return Number(Deno.readTextFileSync(`/proc/${pid}/schedstat`).split(" ")[0]);
}

function kbField(status: string, field: string): number {
  const match = status.match(new RegExp(`^${field}:\\s*(\\d+) kB`, "m"));
  return match ? Number(match[1]) : 0;
}
