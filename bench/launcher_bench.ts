/**
 * What the launcher adds to start-up: `deno bench -A bench/launcher_bench.ts`.
 *
 * Each iteration starts the fake Anthropic server in this process (one plain answer, no model
 * delay), makes a temporary workspace and starts `agent -p "go" --workspace <dir>` with
 * `ANTHROPIC_BASE_URL` and `ANTHROPIC_API_KEY` set, and times launch → first model request: the
 * window opens just before the spawn and closes when the fake server records request 1. Side by
 * side in one run, from source and from the bundle, each two ways, in pairs (one after the other,
 * alternating which goes first, so the machine's load weighs on both alike):
 * - **direct**: `deno run` with the flags the launcher would compute (computed here, outside the
 *   timed window) and the module itself: what rein costs under the narrowed permissions;
 * - **launcher**: `sh cli/launch.sh`, as the `agent` task runs it, which computes the flags and
 *   execs the same command; for the bundle with `--entry`, as the installed `rein` does.
 *
 * The bench table times the launcher runs. The summary, printed when the bench process unloads,
 * gives both medians and what the launcher adds: the median of the paired differences (target
 * ≤ 15 ms), over the measured iterations only (`deno bench` makes two untimed calls first).
 *
 * @module
 */
import { planLaunch } from "../cli/_launch_plan.ts";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { plainAnswer } from "../testing/scenarios.ts";
import { buildBundle } from "./_bundle.ts";

const ITERATIONS = 20;
const UNTIMED_CALLS = 2;
const TARGET_MS = 15;
const ROOT = new URL("../", import.meta.url);
const ROOT_DIR = ROOT.pathname.replace(/\/$/, "");
const LAUNCHER = new URL("cli/launch.sh", ROOT).pathname;

const TASKS: Record<string, string> = JSON.parse(
  await Deno.readTextFile(new URL("deno.json", ROOT)),
).tasks;

/** A way of starting the agent: the program and its arguments, given rein's and the environment. */
interface Launch {
  program: string;
  argsFor(agentArgs: string[], env: Record<string, string>): string[];
}

/** `deno run` with the flags the launcher would compute, computed here. */
function direct(entry: string[]): Launch {
  return {
    program: Deno.execPath(),
    argsFor: (agentArgs, env) =>
      planLaunch({
        argv: [...entry, ...agentArgs],
        env: { ...Deno.env.toObject(), ...env },
        cwd: Deno.cwd(),
        root: ROOT_DIR,
        realPath: (path) => {
          try {
            return Deno.realPathSync(path);
          } catch {
            return undefined;
          }
        },
      }).denoArgs,
  };
}

/** The launcher, as the `agent` task runs it (with this Deno, as the installed command has). */
function launched(entry: string[]): Launch {
  if (!(TASKS.agent ?? "").includes("cli/launch.sh")) {
    throw new Error('The "agent" task does not run cli/launch.sh');
  }
  return { program: "sh", argsFor: (agentArgs) => [LAUNCHER, ...entry, ...agentArgs] };
}

const bundle = await buildBundle();
const GROUPS = [
  { name: "source", direct: direct([]), launcher: launched([]) },
  { name: "bundle", direct: direct(["--entry", bundle]), launcher: launched(["--entry", bundle]) },
];
/** Measured pairs per group: [direct, launcher] in ms. */
const pairs = new Map<string, [number, number][]>();

for (const group of GROUPS) {
  let calls = 0;
  Deno.bench({
    name: `launcher, ${group.name} (paired with a direct launch)`,
    group: group.name,
    n: ITERATIONS,
    warmup: 1,
    async fn(b) {
      // Alternate which goes first, so a drift of the machine's load weighs on both alike.
      const untimed = { start() {}, end() {} };
      let directMs: number;
      let launcherMs: number;
      if (calls % 2 === 0) {
        directMs = await timeFirstRequest(untimed, group.direct);
        launcherMs = await timeFirstRequest(b, group.launcher);
      } else {
        launcherMs = await timeFirstRequest(b, group.launcher);
        directMs = await timeFirstRequest(untimed, group.direct);
      }
      if (++calls > UNTIMED_CALLS) {
        pairs.set(group.name, [...(pairs.get(group.name) ?? []), [directMs, launcherMs]]);
      }
    },
  });
}

globalThis.addEventListener("unload", () => {
  const lines = ["launch → first model request, medians over paired runs:"];
  for (const [group, measured] of pairs) {
    const without = median(measured.map(([d]) => d));
    const through = median(measured.map(([, l]) => l));
    const added = median(measured.map(([d, l]) => l - d));
    lines.push(
      `  ${group.padEnd(6)}  direct ${fmt(without)}  launcher ${fmt(through)}  ` +
        `launcher adds ${fmt(added)} (median of ${measured.length} paired differences; ` +
        `target ≤ ${TARGET_MS} ms)`,
    );
  }
  if (lines.length > 1) console.log(`\n${lines.join("\n")}`);
});

/** One run of the agent; `b` times launch → first request. Resolves to that time in ms. */
async function timeFirstRequest(
  b: Pick<Deno.BenchContext, "start" | "end">,
  launch: Launch,
): Promise<number> {
  await using fake = await startFakeAnthropic({ script: plainAnswer("ok") });
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-launch-bench-" }));
  try {
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-fake-bench-key" };
    const command = new Deno.Command(launch.program, {
      args: launch.argsFor(["agent", "-p", "go", "--workspace", workspace], env),
      env: { ...env, REIN_DENO: Deno.execPath() },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    });
    b.start();
    const spawnedAt = performance.now();
    const child = command.spawn();
    const output = child.output();
    await Promise.race([fake.waitForRequests(1, 30_000), output.then(failedBeforeRequest)]);
    b.end();
    const result = await output;
    if (!result.success) {
      throw new Error(`The agent exited with code ${result.code}: ${decode(result.stderr)}`);
    }
    return (fake.requests[0]?.receivedAt ?? NaN) - spawnedAt;
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
}

function failedBeforeRequest(result: Deno.CommandOutput): never {
  throw new Error(
    `The agent exited (code ${result.code}) before its first model request: ${
      decode(result.stderr)
    }`,
  );
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = (sorted.length - 1) / 2;
  return ((sorted[Math.floor(mid)] ?? NaN) + (sorted[Math.ceil(mid)] ?? NaN)) / 2;
}

function fmt(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}
