/**
 * End-to-end speed of the real CLI: `deno bench -A bench/agent_bench.ts`.
 *
 * Each iteration starts the fake Anthropic server in this process with
 * `sequentialBash(20, (i) => \`echo ${i}\`)` (no model delay), makes a temporary workspace and
 * spawns an agent with `agent -p "go" --workspace <dir>` and `ANTHROPIC_BASE_URL` and
 * `ANTHROPIC_API_KEY` set, in four ways, side by side in one group:
 * - **floor** (the group's baseline): `bench/_floor_agent.ts`, a minimal agent of plain `fetch`,
 *   SSE parsing and `Deno.Command`, run with the `agent` task's runtime flags. It is what
 *   launching Deno and making one HTTP request costs on this machine, so rein's numbers read
 *   against it;
 * - **installed `rein`**: the minified bundle `deno task install` puts on the PATH (built here with
 *   the `build` task's command into a temporary directory), run with the install's flags;
 * - **`deno task agent`**: the launcher as the `agent` task runs it (`--bundle-cache`), which starts
 *   the checkout's cached bundle of its current sources (cli/bundle_cache.ts). The bench brings the
 *   cache up to date first, and checks each run started it (the agent's command line in /proc):
 *   an edit to rein's sources during the bench fails it, as the run would be from source;
 * - **from source** (`REIN_FROM_SOURCE=1 deno task agent`): `cli/main.ts`, with the `agent` task's
 *   flags: what rein itself costs to load without the bundle (development of rein).
 *
 * The run makes 21 model requests: 20 that each answer with one `bash` call, and a final one
 * answered with text.
 *
 * What is measured, per run:
 * - **Launch → first model request** (the bench's reported time): the timed window opens just
 *   before the spawn and closes when the fake server records request 1. The rest of the run
 *   happens outside the window. Targets: ≤ 3× the floor's installed, ≤ 4.5× from source.
 * - **Harness gap**: for each of the 20 tool rounds, the fake's `finishedAt` of response i to the
 *   `receivedAt` of request i + 1, minus that round's tool run time: the `durationMs` of its
 *   `tool.completed` in the run's log (rein; the floor prints its own on stdout), rounded to
 *   whole ms, so each gap is exact to ±0.5 ms. There are 20 such gaps per run, not 19: 21
 *   requests, the last one answered with text. A timed window cannot subtract the tool's time,
 *   so this is not a bench of its own: the median over all gaps of all measured runs is printed
 *   in the summary. Target ≤ 2× the floor's.
 * - **Peak memory** of the agent process: `VmHWM` (the kernel's high-water mark of resident memory,
 *   falling back to `VmRSS`) from `/proc/<pid>/status`, polled every few ms while it runs; the
 *   maximum is kept and printed in the summary (MB = 2^20 bytes). Target ≤ 80 MB.
 *
 * The summary is printed when the bench process unloads and counts only the measured iterations:
 * `deno bench` makes two untimed calls first (warm-up; they also refill Deno's code cache after an
 * edit), which are left out. Its launch min/max should match the bench table's. A last line puts
 * the three launch medians side by side, each with what it adds to the floor's. The bench process
 * hosts the fake server and the memory poller, so the numbers include a little of its own
 * scheduling noise, and any other load on the machine.
 *
 * @module
 */
import { join } from "node:path";
import { readEvents } from "../events/mod.ts";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { sequentialBash } from "../testing/scenarios.ts";
import { buildBundle } from "./_bundle.ts";
import { refreshBundleCache } from "../cli/bundle_cache.ts";

const CALLS = 20;
const ITERATIONS = 10;
const ROOT = new URL("../", import.meta.url);
/**
 * Issue 21's targets, as multiples of the floor's numbers in the same run (its machine launched
 * the floor in 24–29 ms: ≤ 80 ms installed, ≤ 120 ms from source; gap ≤ 2× the floor's).
 */
const TARGETS = { gapFloors: 2, peakMb: 80 };

/** What one measured run of the CLI produced. */
interface RunStats {
  launchMs: number;
  /** Harness time of each tool round, tool run time excluded. */
  gapsMs: number[];
  /** Tool run time of each round, as logged. */
  toolMs: number[];
  peakMb: number;
  totalMs: number;
}

/** Calls `deno bench` makes before the timed ones, whatever `warmup` says. */
const UNTIMED_CALLS = 2;

/** A way of launching an agent: the `deno` arguments before `agent -p …`. */
interface Launch {
  name: string;
  /** The program to start (Deno, or the shell running the launcher). */
  program: string;
  args: string[];
  /** Target of launch → first model request, as a multiple of the floor's; none for the floor. */
  targetFloors?: number;
  /** Tool run time of each round, from the run's workspace (its log) or its stdout. */
  toolDurations(workspace: string, stdout: string): Promise<number[]>;
  /** Variables set for the run, besides the model's. */
  env?: Record<string, string>;
  /** Whether the run must start the cached bundle, checked from its command line; unchecked if unset. */
  cachedBundle?: boolean;
}

const TASKS: Record<string, string> = JSON.parse(
  await Deno.readTextFile(new URL("deno.json", ROOT)),
).tasks;

/** The words of a deno.json task, split on spaces (the tasks used here have no quoting). */
function taskWords(name: string): string[] {
  const task = TASKS[name];
  if (!task) throw new Error(`deno.json has no "${name}" task`);
  return task.split(/\s+/);
}

/**
 * The launcher as the `agent` task runs it: `sh cli/launch.sh` and the task's launcher options
 * (`--bundle-cache`), when `task` is true; else `sh cli/launch.sh` alone.
 */
function launcherArgs(task = false): string[] {
  const words = taskWords("agent");
  const at = words.indexOf("cli/launch.sh");
  if (at < 0) throw new Error('The "agent" task does not run cli/launch.sh');
  const options = task ? words.slice(at + 1, words.indexOf("agent", at)) : [];
  return [new URL("cli/launch.sh", ROOT).pathname, ...options];
}

/** The installed command: the launcher starting the bundle, as `deno task install` sets it up. */
function installedLaunch(bundle: string): Launch {
  return {
    name: "installed rein",
    program: "sh",
    args: [...launcherArgs(), "--entry", bundle],
    targetFloors: 3,
    toolDurations: loggedToolDurations,
  };
}

/** `deno task agent`: the launcher starting the checkout's cached bundle. */
function taskLaunch(): Launch {
  return {
    name: "deno task agent",
    program: "sh",
    args: launcherArgs(true),
    targetFloors: 4.5,
    toolDurations: loggedToolDurations,
    cachedBundle: true,
  };
}

/** `REIN_FROM_SOURCE=1 deno task agent`: the launcher starting cli/main.ts. */
function sourceLaunch(): Launch {
  return {
    name: "from source",
    program: "sh",
    args: launcherArgs(true),
    toolDurations: loggedToolDurations,
    env: { REIN_FROM_SOURCE: "1" },
    cachedBundle: false,
  };
}

/**
 * Bring the checkout's cached bundle up to date for the Deno running the bench (the launcher's
 * `$deno` is REIN_DENO, set below), as the first `deno task agent` after an edit does in the
 * background. Throws when it cannot (sources changing all along).
 */
async function freshBundleCache(): Promise<void> {
  const root = decodeURIComponent(ROOT.pathname).replace(/\/$/, "");
  for (let attempt = 0; attempt < 5; attempt++) {
    const { outcome } = await refreshBundleCache({ root, deno: Deno.execPath() });
    if (outcome === "built" || outcome === "restamped") return;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  throw new Error("Cannot bring the cached bundle up to date: the sources keep changing");
}

/** The minimal agent, with the agent's runtime flags (all permissions: it is the floor). */
function floorLaunch(): Launch {
  return {
    name: "floor (plain fetch agent)",
    program: Deno.execPath(),
    args: [
      "run",
      "--allow-all",
      "--quiet",
      "--v8-flags=--max-semi-space-size=1",
      new URL("bench/_floor_agent.ts", ROOT).pathname,
    ],
    toolDurations: (_workspace, stdout) =>
      Promise.resolve([...stdout.matchAll(/^tool (\d+)$/gm)].map((match) => Number(match[1]))),
  };
}

await freshBundleCache();
const LAUNCHES: Launch[] = [
  floorLaunch(),
  installedLaunch(await buildBundle()),
  taskLaunch(),
  sourceLaunch(),
];
const runs = new Map<string, RunStats[]>();

for (const [index, launch] of LAUNCHES.entries()) {
  let calls = 0;
  Deno.bench({
    name: `launch → first model request, ${launch.name}`,
    group: "launch",
    baseline: index === 0,
    n: ITERATIONS,
    warmup: 1,
    async fn(b) {
      const stats = await runAgent(b, launch);
      if (++calls > UNTIMED_CALLS) runs.set(launch.name, [...(runs.get(launch.name) ?? []), stats]);
    },
  });
}

globalThis.addEventListener("unload", () => {
  for (const launch of LAUNCHES) {
    const stats = runs.get(launch.name);
    if (stats) {
      console.log(
        `\n${launch.name}\n${summaryTable(stats, launch, runs.get(LAUNCHES[0]?.name ?? ""))}`,
      );
    }
  }
  const floor = runs.get(LAUNCHES[0]?.name ?? "");
  if (floor) console.log(`\n${launchComparison(floor)}`);
});

/** One scripted run of the CLI; `b` times launch → first request. Throws if the run fails. */
async function runAgent(b: Deno.BenchContext, launch: Launch): Promise<RunStats> {
  await using fake = await startFakeAnthropic({
    script: sequentialBash(CALLS, (i) => `echo ${i}`),
  });
  const workspace = await Deno.makeTempDir({ prefix: "rein-agent-bench-" });
  try {
    const command = new Deno.Command(launch.program, {
      args: [...launch.args, "agent", "-p", "go", "--workspace", workspace],
      env: {
        ...launch.env,
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: "sk-fake-bench-key",
        REIN_DENO: Deno.execPath(),
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    });
    b.start();
    const spawnedAt = performance.now();
    const child = command.spawn();
    const commandLines = new Set<string>();
    const peak = pollPeakMemory(child.pid, child.status, commandLines);
    const output = child.output();
    try {
      await Promise.race([fake.waitForRequests(1, 30_000), output.then(failedBeforeRequest)]);
    } catch (error) {
      killQuietly(child);
      throw error;
    }
    b.end();
    const [result, peakKb] = await Promise.all([output, peak]);
    const exitedAt = performance.now();
    if (!result.success) {
      const stderr = new TextDecoder().decode(result.stderr);
      throw new Error(`The agent exited with code ${result.code}: ${stderr}`);
    }
    const bundled = [...commandLines].some((line) => line.includes("/.bundle-at-"));
    if (launch.cachedBundle !== undefined && bundled !== launch.cachedBundle) {
      throw new Error(
        `${launch.name} ran ${bundled ? "the cached bundle" : "from source"} (${
          [...commandLines].join(" | ")
        }): did rein's sources change during the bench?`,
      );
    }
    const requests = fake.requests;
    if (requests.length !== CALLS + 1) {
      throw new Error(`Expected ${CALLS + 1} model requests, got ${requests.length}`);
    }
    const toolMs = await launch.toolDurations(workspace, new TextDecoder().decode(result.stdout));
    if (toolMs.length !== CALLS) {
      throw new Error(`Expected ${CALLS} tool durations, got ${toolMs.length}`);
    }
    const gapsMs = toolMs.map((tool, i) => {
      const finished = requests[i]?.finishedAt;
      const next = requests[i + 1]?.receivedAt;
      if (finished === undefined || next === undefined) {
        throw new Error(`Request ${i + 1} has no finish time or no successor`);
      }
      return next - finished - tool;
    });
    return {
      launchMs: (requests[0]?.receivedAt ?? NaN) - spawnedAt,
      gapsMs,
      toolMs,
      peakMb: peakKb / 1024,
      totalMs: exitedAt - spawnedAt,
    };
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
}

function killQuietly(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGKILL");
  } catch {
    // It has already exited.
  }
}

function failedBeforeRequest(result: Deno.CommandOutput): never {
  const stderr = new TextDecoder().decode(result.stderr);
  throw new Error(
    `The agent exited (code ${result.code}) before its first model request: ${stderr}`,
  );
}

/**
 * `durationMs` of the bash calls `toolu_bash_1` … `toolu_bash_<CALLS>` in the log of a run in
 * `workspace`, in that order.
 */
async function loggedToolDurations(workspace: string): Promise<number[]> {
  const byCall = new Map<string, number>();
  for (const event of await readEvents(join(workspace, ".rein", "events.jsonl"))) {
    if (event.type === "tool.completed") byCall.set(event.data.callId, event.data.durationMs);
  }
  return Array.from({ length: CALLS }, (_, i) => {
    const duration = byCall.get(`toolu_bash_${i + 1}`);
    if (duration === undefined) throw new Error(`No tool.completed for toolu_bash_${i + 1}`);
    return duration;
  });
}

/**
 * Highest VmHWM/VmRSS (kB) of `pid` seen until `exited` settles, polled every 5 ms. VmHWM is the
 * kernel's own high-water mark, so only growth in the last few ms before exit can be missed. The
 * command line of each Deno process of the tree seen is added to `commandLines`.
 */
async function pollPeakMemory(
  pid: number,
  exited: Promise<unknown>,
  commandLines: Set<string>,
): Promise<number> {
  let done = false;
  exited.finally(() => done = true);
  let peakKb = 0;
  while (!done) {
    // The launcher starts the agent as a child (through setpriv): the peak is the largest
    // process of the tree, which is the agent.
    for (const each of await processTree(pid)) {
      const status = await Deno.readTextFile(`/proc/${each}/status`).catch(() => "");
      peakKb = Math.max(peakKb, kbField(status, "VmHWM"), kbField(status, "VmRSS"));
      const line = await Deno.readTextFile(`/proc/${each}/cmdline`).catch(() => "");
      if (line.includes(" run ") || line.includes("\0run\0")) {
        commandLines.add(line.replaceAll("\0", " ").trim());
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return peakKb;
}

/** `pid` and its descendants, from /proc. */
async function processTree(pid: number): Promise<number[]> {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    const children = await Deno.readTextFile(`/proc/${tree[i]}/task/${tree[i]}/children`)
      .catch(() => "");
    tree.push(...children.split(" ").filter(Boolean).map(Number));
  }
  return tree;
}

function kbField(status: string, field: string): number {
  const match = status.match(new RegExp(`^${field}:\\s*(\\d+) kB`, "m"));
  return match ? Number(match[1]) : 0;
}

function summaryTable(
  stats: readonly RunStats[],
  launch: Launch,
  floor: readonly RunStats[] | undefined,
): string {
  const gaps = stats.flatMap((run) => run.gapsMs);
  const floorLaunch = floor && median(floor.map((run) => run.launchMs));
  const floorGap = floor && median(floor.flatMap((run) => run.gapsMs));
  const rows: [string, string, string, string][] = [
    [
      "launch → first model request",
      fmt(median(stats.map((run) => run.launchMs)), "ms"),
      launch.targetFloors === undefined || floorLaunch === undefined
        ? ""
        : `≤ ${fmt(launch.targetFloors * floorLaunch, "ms")}`,
      `min ${fmt(Math.min(...stats.map((run) => run.launchMs)), "ms")}, ` +
      `max ${fmt(Math.max(...stats.map((run) => run.launchMs)), "ms")}`,
    ],
    [
      "harness gap (response → next request − tool)",
      fmt(median(gaps), "ms"),
      launch === LAUNCHES[0] || floorGap === undefined
        ? ""
        : `≤ ${fmt(TARGETS.gapFloors * floorGap, "ms")}`,
      `p90 ${fmt(quantile(gaps, 0.9), "ms")}, max ${fmt(Math.max(...gaps), "ms")}`,
    ],
    [
      "peak memory of the CLI (VmHWM)",
      fmt(Math.max(...stats.map((run) => run.peakMb)), "MB"),
      launch === LAUNCHES[0] ? "" : `≤ ${TARGETS.peakMb} MB`,
      `median ${fmt(median(stats.map((run) => run.peakMb)), "MB")}`,
    ],
    [
      "tool run time (bash, as logged)",
      fmt(median(stats.flatMap((run) => run.toolMs)), "ms"),
      "",
      "",
    ],
    ["whole run, launch → exit", fmt(median(stats.map((run) => run.totalMs)), "ms"), "", ""],
  ];
  const header = `\nagent_bench summary: ${stats.length} runs × ${CALLS} tool rounds ` +
    `(median unless noted; peak memory is the max over runs)`;
  const widths = [0, 1, 2].map((col) => Math.max(...rows.map((row) => row[col]?.length ?? 0)));
  const lines = rows.map((row) =>
    row.map((cell, col) => cell.padEnd(widths[col] ?? 0)).join("  ").trimEnd()
  );
  return [header, ...lines].join("\n");
}

/** One line per launch: its median launch time, what it adds to the floor's, and its target. */
function launchComparison(floor: readonly RunStats[]): string {
  const floorMs = median(floor.map((run) => run.launchMs));
  const lines = LAUNCHES.flatMap((launch) => {
    const stats = runs.get(launch.name);
    if (!stats) return [];
    const ms = median(stats.map((run) => run.launchMs));
    const over = launch === LAUNCHES[0]
      ? ""
      : `  floor + ${fmt(ms - floorMs, "ms")} = ${(ms / floorMs).toFixed(2)}× the floor`;
    const target = launch.targetFloors === undefined
      ? ""
      : `  (target ≤ ${launch.targetFloors}× the floor: ${
        fmt(launch.targetFloors * floorMs, "ms")
      })`;
    return [`  ${launch.name.padEnd(26)} ${fmt(ms, "ms").padStart(9)}${over}${target}`];
  });
  return ["launch → first model request, medians:", ...lines].join("\n");
}

function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = sorted[Math.floor(at)] ?? NaN;
  const high = sorted[Math.ceil(at)] ?? NaN;
  return low + (high - low) * (at - Math.floor(at));
}

function fmt(value: number, unit: string): string {
  return `${value.toFixed(1)} ${unit}`;
}
