/**
 * What each mechanism adds to launch and to the turn gap: `deno bench -A bench/mechanism_cost_bench.ts`.
 *
 * Each iteration runs the agent bench's scenario in this process (the fake Anthropic server's
 * `sequentialBash(20, …)`: 20 rounds of one bash call, then a text answer) in a session recorded
 * as the CLI records one (settings with `--allowedTools Bash`, background jobs, cron, every
 * feature), with every mechanism wrapped (`HarnessOptions.wrapMechanism`) so that the time spent
 * in its own functions is counted: its stages, system prompt sections, tool sources, arrivals,
 * wake sources, file readers and its projections' folds (a tool's own run, bash's command, is
 * not). Time in a function another mechanism's function calls is counted for both (inclusive).
 *
 * Printed when the bench unloads, per mechanism, medians over the measured iterations:
 * - **launch**: its time from the harness's creation until the first model request arrives;
 * - **per turn**: its time from then to the end of the run, divided by the 20 rounds;
 * - **import alone**: launching Deno on its folder's mod.ts, minus launching Deno on the kernel's
 *   modules alone (core/mechanism.ts, core/harness.ts' own kernel imports are shared by all), the
 *   best of 5 runs; what a mechanism's code adds to start-up when it is loaded.
 *
 * @module
 */
import type { Mechanism } from "../core/mechanism.ts";
import { startTestSession } from "../testing/test_session.ts";
import { sequentialBash } from "../testing/scenarios.ts";

const CALLS = 20;
const ITERATIONS = 8;
/** Calls `deno bench` makes before the timed ones (warm-up), left out of the summary. */
const UNTIMED_CALLS = 2;

/** Milliseconds per mechanism name, for one run. */
type Costs = Map<string, { launch: number; turns: number }>;

/** Wraps `fn` so that its time (until its promise settles, if it returns one) is added to `add`. */
function timed<F extends (...args: never[]) => unknown>(fn: F, add: (ms: number) => void): F {
  return function (this: unknown, ...args: Parameters<F>) {
    const start = performance.now();
    const result = fn.apply(this, args);
    if (result instanceof Promise) {
      return result.finally(() => add(performance.now() - start));
    }
    add(performance.now() - start);
    return result;
  } as F;
}

/** Every function-valued member of `object`, wrapped with {@link timed} (a shallow copy). */
function timedMembers<T extends object>(object: T, add: (ms: number) => void): T {
  const copy = { ...object } as Record<string, unknown>;
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value === "function") copy[key] = timed(value as () => unknown, add);
  }
  return copy as T;
}

/** `mechanism` with the time of its own functions counted in `costs` under its name. */
function counted(mechanism: Mechanism, costs: Costs, phase: () => "launch" | "turns"): Mechanism {
  const entry = costs.get(mechanism.name) ?? { launch: 0, turns: 0 };
  costs.set(mechanism.name, entry);
  const add = (ms: number) => {
    entry[phase()] += ms;
  };
  const wrapped: Mechanism = timedMembers(mechanism, add);
  if (mechanism.stages) wrapped.stages = timedMembers(mechanism.stages, add);
  if (mechanism.projection) wrapped.projection = timedMembers(mechanism.projection, add);
  if (mechanism.catalog) wrapped.catalog = timedMembers(mechanism.catalog, add);
  if (mechanism.wake) wrapped.wake = timedMembers(mechanism.wake, add);
  return wrapped;
}

/** One run of the scenario; resolves to each mechanism's costs. */
async function measuredRun(): Promise<Costs> {
  const costs: Costs = new Map();
  let phase: "launch" | "turns" = "launch";
  await using rig = await startTestSession(sequentialBash(CALLS, (i) => `echo ${i}`), {
    wrapMechanism: (mechanism) => counted(mechanism, costs, () => phase),
    recordSettings: {
      settings: {},
      flags: { allowedTools: ["Bash"] },
      jobs: { timeoutMs: 600_000, outputMaxBytes: 1_000_000 },
    },
  });
  const first = rig.fake.waitForRequests(1, 30_000).then(() => phase = "turns");
  const result = await rig.session.prompt("go", {
    signal: new AbortController().signal,
    maxTurns: CALLS + 5,
  });
  await first;
  if (rig.fake.requests.length !== CALLS + 1) {
    throw new Error(`Expected ${CALLS + 1} model requests, got ${rig.fake.requests.length}`);
  }
  if (result.reason !== "completed") throw new Error(`The run ended ${result.reason}`);
  return costs;
}

const runs: Costs[] = [];
let calls = 0;
Deno.bench({
  name: `a ${CALLS}-call session in process, every mechanism timed`,
  n: ITERATIONS,
  warmup: 1,
  async fn() {
    const costs = await measuredRun();
    if (++calls > UNTIMED_CALLS) runs.push(costs);
  },
});

/** The best of `n` launches of Deno on `code` (evaluated as a module), in ms. */
async function launchMs(code: string, n = 5): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--quiet", "--no-check", code],
      cwd: new URL("../", import.meta.url),
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!run.success) throw new Error(new TextDecoder().decode(run.stderr));
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** Each mechanism folder of core/ (one with a mod.ts), by name. */
async function mechanismFolders(): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(new URL("../core/", import.meta.url))) {
    if (!entry.isDirectory) continue;
    const mod = new URL(`../core/${entry.name}/mod.ts`, import.meta.url);
    if (await Deno.stat(mod).then(() => true, () => false)) names.push(entry.name);
  }
  return names.sort();
}

const importCosts = new Map<string, number>();
Deno.bench({
  name: "import alone: each mechanism folder's mod.ts over the kernel's modules",
  n: 1,
  warmup: 0,
  async fn() {
    const kernel = 'import "./core/mechanism.ts"; import "./events/event_types.ts";';
    const base = await launchMs(kernel);
    for (const folder of await mechanismFolders()) {
      importCosts.set(
        folder,
        (await launchMs(`${kernel} import "./core/${folder}/mod.ts";`)) - base,
      );
    }
  },
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] ?? 0 : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

globalThis.addEventListener("unload", () => {
  const pad = (text: string, width: number) => text.padEnd(width);
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  if (runs.length > 0) {
    const names = [...runs[0]?.keys() ?? []];
    console.log(`\nmechanism_cost summary: ${runs.length} runs × ${CALLS} rounds (medians)`);
    console.log(`${pad("mechanism", 16)}${pad("launch", 12)}per turn`);
    for (const name of names) {
      const launch = median(runs.map((run) => run.get(name)?.launch ?? 0));
      const turn = median(runs.map((run) => (run.get(name)?.turns ?? 0) / CALLS));
      console.log(`${pad(name, 16)}${pad(ms(launch), 12)}${ms(turn)}`);
    }
  }
  if (importCosts.size > 0) {
    console.log("\nimport alone, over the kernel's modules (best of 5 launches)");
    for (const [folder, cost] of importCosts) {
      console.log(`${pad(`core/${folder}`, 18)}${ms(cost)}`);
    }
  }
});
