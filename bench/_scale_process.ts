/**
 * Runs the real CLI as a subprocess for the scale bench, through the launcher users run
 * (`sh cli/launch.sh …`, which execs Deno with the agent's or the read-only commands' flags), and
 * measures it: launch → first model request (when a fake server is given), launch → exit, and the
 * peak resident memory of the process (`/usr/bin/time -v`'s "Maximum resident set size": the
 * kernel's high-water mark, exact, with no polling that would load the machine; the launcher
 * execs Deno, so it is Deno's own).
 *
 * @module
 */
import type { FakeAnthropic } from "../testing/fake_anthropic.ts";

/** The checkout whose CLI is run: this bench's own. */
export const ROOT = new URL("../", import.meta.url).pathname;
const TIME = "/usr/bin/time";

/** What one CLI run took. */
export interface CliRun {
  /** Launch → the fake server's receipt of request 1 (NaN without a fake server). */
  firstRequestMs: number;
  /** Launch → exit. */
  totalMs: number;
  /** Peak resident memory in MB (2^20 bytes); NaN where `/usr/bin/time` is missing. */
  peakMb: number;
  stdout: string;
  stderr: string;
}

/** How to run the CLI. */
export interface CliOptions {
  /** rein's arguments (`agent -p …`, `state LOG`, `replay LOG --verify`). */
  args: readonly string[];
  /** The model server; its URL and a key are put in the environment. */
  fake?: FakeAnthropic;
  /** More environment (compaction knobs). */
  env?: Record<string, string>;
  /** `deno bench`'s context: the timed window is launch → first request (or → exit). */
  bench?: Deno.BenchContext;
  /** Whether a non-zero exit is expected; default false (it throws with stderr). */
  mayFail?: boolean;
}

let hasTime: boolean | undefined;

/** Run `sh cli/launch.sh ARGS` and measure it. Throws when it fails, unless `mayFail`. */
export async function runCli(options: CliOptions): Promise<CliRun> {
  hasTime ??= await Deno.stat(TIME).then(() => true, () => false);
  const launcher = [`${ROOT}cli/launch.sh`, ...options.args];
  const env: Record<string, string> = { REIN_DENO: Deno.execPath(), ...options.env };
  if (options.fake) {
    env.ANTHROPIC_BASE_URL = options.fake.url;
    env.ANTHROPIC_API_KEY = "sk-fake-bench-key";
  }
  const command = new Deno.Command(hasTime ? TIME : "sh", {
    args: hasTime ? ["-v", "sh", ...launcher] : launcher,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
  const before = options.fake?.requests.length ?? 0;
  options.bench?.start();
  const spawnedAt = performance.now();
  const child = command.spawn();
  const output = child.output();
  let firstRequestMs = NaN;
  if (options.fake) {
    try {
      const requests = await Promise.race([
        options.fake.waitForRequests(before + 1, 600_000),
        output.then(exitedBeforeRequest),
      ]);
      firstRequestMs = (requests[before]?.receivedAt ?? NaN) - spawnedAt;
      options.bench?.end();
    } catch (error) {
      killQuietly(child);
      throw error;
    }
  }
  const result = await output;
  const totalMs = performance.now() - spawnedAt;
  if (!options.fake) options.bench?.end();
  const stdout = new TextDecoder().decode(result.stdout);
  const fullStderr = new TextDecoder().decode(result.stderr);
  const [stderr, peakMb] = hasTime ? splitTimeReport(fullStderr) : [fullStderr, NaN];
  if (!result.success && !options.mayFail) {
    throw new Error(`rein ${options.args.join(" ")} exited with code ${result.code}: ${stderr}`);
  }
  return { firstRequestMs, totalMs, peakMb, stdout, stderr };
}

/** The program's own stderr and the peak memory from `/usr/bin/time -v`'s report after it. */
function splitTimeReport(stderr: string): [string, number] {
  const at = stderr.lastIndexOf("\tCommand being timed:");
  const match = stderr.match(/Maximum resident set size \(kbytes\): (\d+)/);
  return [at === -1 ? stderr : stderr.slice(0, at), match ? Number(match[1]) / 1024 : NaN];
}

function exitedBeforeRequest(result: Deno.CommandOutput): never {
  const stderr = new TextDecoder().decode(result.stderr);
  throw new Error(`rein exited (code ${result.code}) before its first model request: ${stderr}`);
}

/** Kill the CLI and `/usr/bin/time` around it (the launcher execs Deno in time's child). */
function killQuietly(child: Deno.ChildProcess): void {
  try {
    const children = Deno.readTextFileSync(`/proc/${child.pid}/task/${child.pid}/children`);
    for (const pid of children.split(" ").filter(Boolean)) Deno.kill(Number(pid), "SIGKILL");
  } catch {
    // Gone already, or not wrapped.
  }
  try {
    child.kill("SIGKILL");
  } catch {
    // It has already exited.
  }
}
