/**
 * Issue 10's targets at scale: `deno bench -A bench/scale_bench.ts`. The real CLI runs as a
 * subprocess through the launcher (`sh cli/launch.sh`), against the fake Anthropic server on
 * loopback; peak memory is the process's high-water mark (`/usr/bin/time -v`).
 *
 * - **new session**: `agent -p` in a workspace whose log holds `REIN_BENCH_EVENTS` events
 *   (default 1,000,000, ~450 MB, testing/generate_log.ts, cached: see bench/_scale_log.ts) next to
 *   one in an empty workspace (the baseline): launch → first model request, and peak memory.
 *   Targets: ≤ 1.2× the time, ≤ 1.5× the memory.
 * - **resume**: `agent --resume <last session> -p` in the same workspace, launch → first request.
 *   Target < 1 s (with a snapshot).
 * - **fold**: in this process, rein's full fold (`readLog` + the root `evolve`, every session)
 *   of the large log next to plain `JSON.parse` of its lines read the same way (the baseline).
 *   Target ≥ 60% of `JSON.parse`'s speed.
 * - **state**: `rein state` of the large log. Target: peak memory < 200 MB.
 * - **replay**: the long session (bench/_scale_session.ts: 1,000 rounds of 50 KB `read_file`
 *   results, a capped context window so compaction runs several times) replayed with `--verify`,
 *   next to `rein state` of its log (the baseline, which starts from the snapshots the run took).
 *   Target < 2×. Each timed replay runs right after a `rein state` of the same log, and the
 *   verdict is the median of the ratios within those pairs: the machine's speed drifts between
 *   bench blocks (by 10% on a shared VM), and a pair sees the same. `rein state` of the log alone
 *   (its snapshots set aside) is shown beside it.
 *
 * The long session is run once, when a bench first needs it (outside every timed window); its
 * turn gaps give the slope over rounds (target < 1 ms per 1,000 rounds, by least squares) and
 * its requests the cache stability (target ≥ 90%). The summary table with every ratio is
 * printed when the bench process unloads, from the timed iterations only (`deno bench` makes
 * two untimed calls of each bench first). Sizes: `REIN_BENCH_EVENTS`, `REIN_BENCH_ROUNDS`,
 * `REIN_BENCH_TOOL_BYTES`, `REIN_BENCH_COMPACT_WINDOW`, `REIN_BENCH_COMPACT_PCT`; timed runs of
 * every bench: `REIN_BENCH_RUNS`; `REIN_BENCH_KEEP=1` keeps the long session's workspace. A quick
 * run: `REIN_BENCH_EVENTS=20000 REIN_BENCH_ROUNDS=50`. Some benches only: `--filter` on their
 * names, e.g. `deno bench -A --filter "/1M|empty/" bench/scale_bench.ts` for the large log's,
 * `--filter "long session"` for the long session's.
 *
 * @module
 */
import { readLog } from "../events/mod.ts";
import { evolve, initialState } from "../core/state/state.ts";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { plainAnswer } from "../testing/scenarios.ts";
import {
  restoreLog,
  scaleEvents,
  type ScaleLog,
  scaleLog,
  withoutSnapshots,
} from "./_scale_log.ts";
import { type CliRun, runCli } from "./_scale_process.ts";
import {
  cacheStability,
  type LongSession,
  longSessionOptions,
  runLongSession,
} from "./_scale_session.ts";
import { fmt, linearFit, median, table, verdict } from "./_scale_stats.ts";

const EVENTS = scaleEvents();
const SIZE = EVENTS >= 1_000_000 ? `${EVENTS / 1_000_000}M` : `${EVENTS / 1000}k`;
/** Calls `deno bench` makes before the timed ones. */
const UNTIMED_CALLS = 2;
/** Timed runs of every bench instead of its own count: `REIN_BENCH_RUNS`, for slow builds. */
const RUNS = Number(Deno.env.get("REIN_BENCH_RUNS") ?? NaN);
const n = (runs: number) => Number.isInteger(RUNS) && RUNS > 0 ? RUNS : runs;

let big: Promise<ScaleLog> | undefined;
let session: Promise<LongSession> | undefined;
/** The long session once it has run, for the summary. */
let long: LongSession | undefined;
const bigLog = () => big ??= scaleLog(EVENTS);
const longSession = () =>
  session ??= runLongSession(longSessionOptions()).then((done) => long = done);

/** Timed iterations of each bench, by name. */
const runs = new Map<string, CliRun[]>();
const calls = new Map<string, number>();
function keep(name: string, run: CliRun): void {
  const count = (calls.get(name) ?? 0) + 1;
  calls.set(name, count);
  if (count > UNTIMED_CALLS) runs.set(name, [...(runs.get(name) ?? []), run]);
}

const NEW_EMPTY = "new session, empty workspace";
const NEW_BIG = `new session, ${SIZE}-event workspace`;
const NEW_COLD = `new session, ${SIZE}-event workspace, no snapshot`;
const RESUME = `resume the last session of ${SIZE} events`;
const RESUME_COLD = `resume the last session of ${SIZE} events, no snapshot`;
const STATE_BIG = `rein state, ${SIZE}-event log`;
const STATE_LONG = "rein state, long session";
const STATE_LONG_COLD = "rein state, long session, no snapshot";
const REPLAY_LONG = "rein replay --verify, long session";
/** The `rein state` run just before each replay (untimed by the bench): the pair's baseline. */
const STATE_PAIRED = "rein state, long session, paired";
const PARSE = `JSON.parse of the ${SIZE}-event log's lines`;
const FOLD = `rein's full fold of the ${SIZE}-event log`;

/** `agent -p` in `workspace` to its answer (one request); times launch → first request. */
async function newSession(b: Deno.BenchContext, workspace: string): Promise<CliRun> {
  await using fake = await startFakeAnthropic({ script: plainAnswer("Done.") });
  return await runCli({
    args: ["agent", "-p", "Say done", "--workspace", workspace],
    fake,
    bench: b,
  });
}

Deno.bench({
  name: NEW_EMPTY,
  group: "new session",
  baseline: true,
  n: n(5),
  warmup: 1,
  async fn(b) {
    const workspace = await Deno.makeTempDir({ prefix: "rein-scale-empty-" });
    try {
      keep(NEW_EMPTY, await newSession(b, workspace));
    } finally {
      await Deno.remove(workspace, { recursive: true });
    }
  },
});

/** A bench of a run in the large workspace, restored after it; `cold` hides its snapshots. */
function bigBench(
  name: string,
  group: string,
  runs: number,
  cold: boolean,
  run: (b: Deno.BenchContext, log: ScaleLog) => Promise<CliRun>,
): void {
  Deno.bench({
    name,
    group,
    n: n(runs),
    warmup: 1,
    async fn(b) {
      const log = await bigLog();
      try {
        keep(name, cold ? await withoutSnapshots(log, () => run(b, log)) : await run(b, log));
      } finally {
        await restoreLog(log);
      }
    },
  });
}

/** `agent --resume` of the log's last session with a prompt, to its first request. */
async function resume(b: Deno.BenchContext, log: ScaleLog): Promise<CliRun> {
  const last = log.sessions.at(-1)?.id ?? "";
  await using fake = await startFakeAnthropic({ script: plainAnswer("Done.") });
  const args = ["agent", "--resume", last, "-p", "Go on", "--workspace", log.workspace];
  return await runCli({ args, fake, bench: b });
}

bigBench(NEW_BIG, "new session", 5, false, (b, log) => newSession(b, log.workspace));
bigBench(NEW_COLD, "new session", 3, true, (b, log) => newSession(b, log.workspace));
bigBench(RESUME, "resume", 5, false, resume);
bigBench(RESUME_COLD, "resume", 3, true, resume);

/** Timed folds in this process, by name (ms). */
const folds = new Map<string, number[]>();

/** The lines of `path`, read in 1 MB chunks as the log reader does. */
async function* lines(path: string): AsyncGenerator<string> {
  using file = await Deno.open(path);
  let rest = "";
  for await (const chunk of file.readable.pipeThrough(new TextDecoderStream())) {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop() ?? "";
    yield* parts;
  }
  if (rest) yield rest;
}

function foldBench(name: string, baseline: boolean, fold: (log: ScaleLog) => Promise<number>) {
  Deno.bench({
    name,
    group: "fold",
    baseline,
    n: n(3),
    warmup: 1,
    async fn(b) {
      const log = await bigLog();
      b.start();
      const started = performance.now();
      const count = await fold(log);
      const ms = performance.now() - started;
      b.end();
      if (count !== log.events) throw new Error(`Folded ${count} events, expected ${log.events}`);
      const done = (calls.get(name) ?? 0) + 1;
      calls.set(name, done);
      if (done > UNTIMED_CALLS) folds.set(name, [...(folds.get(name) ?? []), ms]);
    },
  });
}

foldBench(PARSE, true, async (log) => {
  let count = 0;
  for await (const line of lines(log.path)) if (JSON.parse(line).seq) count++;
  return count;
});

foldBench(FOLD, false, async (log) => {
  const state = initialState();
  for await (const event of readLog(log.path)) evolve(state, event);
  return state.lastSeq;
});

Deno.bench({
  name: STATE_BIG,
  group: "state",
  n: n(3),
  warmup: 1,
  async fn(b) {
    const log = await bigLog();
    keep(STATE_BIG, await runCli({ args: ["state", log.path], bench: b }));
  },
});

Deno.bench({
  name: STATE_LONG,
  group: "replay",
  baseline: true,
  n: n(5),
  warmup: 1,
  async fn(b) {
    const { logPath } = await longSession();
    keep(STATE_LONG, await runCli({ args: ["state", logPath], bench: b }));
  },
});

Deno.bench({
  name: STATE_LONG_COLD,
  group: "replay",
  n: n(5),
  warmup: 1,
  async fn(b) {
    const { logPath } = await longSession();
    const run = await withoutSnapshots(
      { path: logPath },
      () => runCli({ args: ["state", logPath], bench: b }),
    );
    keep(STATE_LONG_COLD, run);
  },
});

Deno.bench({
  name: REPLAY_LONG,
  group: "replay",
  n: n(5),
  warmup: 1,
  async fn(b) {
    const { logPath } = await longSession();
    keep(STATE_PAIRED, await runCli({ args: ["state", logPath] }));
    const run = await runCli({ args: ["replay", logPath, "--verify", "-q"], bench: b });
    keep(REPLAY_LONG, run);
  },
});

globalThis.addEventListener("unload", () => {
  console.log(`\n${summary()}`);
  if (long && Deno.env.get("REIN_BENCH_KEEP")) console.log(`long session kept: ${long.logPath}`);
  else if (long) Deno.removeSync(long.workspace, { recursive: true });
});

/** The summary table: every target with its measured figure and verdict. */
function summary(): string {
  const medianOf = (name: string, pick: (run: CliRun) => number) =>
    median((runs.get(name) ?? []).map(pick));
  const firstMs = (name: string) => medianOf(name, (run) => run.firstRequestMs);
  const peak = (name: string) => Math.max(...(runs.get(name) ?? []).map((run) => run.peakMb));
  const totalMs = (name: string) => medianOf(name, (run) => run.totalMs);
  const rows: string[][] = [["target", "measured", "goal", "verdict", "detail"]];

  const timeRatio = firstMs(NEW_BIG) / firstMs(NEW_EMPTY);
  rows.push([
    `new session in ${SIZE} events: launch → first request`,
    `${fmt(timeRatio, "×", 2)}`,
    "≤ 1.2×",
    verdict(timeRatio, (v) => v <= 1.2),
    `${fmt(firstMs(NEW_BIG), "ms")} vs ${fmt(firstMs(NEW_EMPTY), "ms")} empty`,
  ]);
  const memoryRatio = peak(NEW_BIG) / peak(NEW_EMPTY);
  rows.push([
    `new session in ${SIZE} events: peak memory`,
    `${fmt(memoryRatio, "×", 2)}`,
    "≤ 1.5×",
    verdict(memoryRatio, (v) => v <= 1.5),
    `${fmt(peak(NEW_BIG), "MB")} vs ${fmt(peak(NEW_EMPTY), "MB")} empty`,
  ]);
  rows.push([
    `  the same without a snapshot`,
    `${fmt(firstMs(NEW_COLD) / firstMs(NEW_EMPTY), "×", 2)}`,
    "",
    "",
    `${fmt(firstMs(NEW_COLD), "ms")}, peak ${fmt(peak(NEW_COLD), "MB")}`,
  ]);

  if (long) {
    const fit = linearFit(long.gaps.map((gap) => ({ x: gap.round, y: gap.ms })));
    const first = long.gaps.slice(0, 100).map((gap) => gap.ms);
    const last = long.gaps.slice(-100).map((gap) => gap.ms);
    rows.push([
      `turn gap over ${long.options.rounds} rounds: slope`,
      fmt(fit.slope * 1000, "ms/1k rounds", 2),
      "< 1 ms/1k",
      verdict(fit.slope * 1000, (v) => v < 1),
      `median ${fmt(median(first), "ms")} first 100 → ${fmt(median(last), "ms")} last 100; ` +
      `${long.compactions} compactions (gaps across them ${
        fmt(median(long.compactionGapsMs), "ms")
      })`,
    ]);
    const stability = cacheStability(long.requests);
    rows.push([
      "cache stability of the long session",
      fmt(stability.mean * 100, "%"),
      "≥ 90%",
      verdict(stability.mean, (v) => v >= 0.9),
      `${fmt(stability.bytes * 100, "%")} of all request bytes, ${
        fmt(stability.steady * 100, "%")
      } between rounds without a compaction; ${long.requests.length} requests`,
    ]);
  }
  const paired = runs.get(STATE_PAIRED) ?? [];
  const replayRatio = median(
    (runs.get(REPLAY_LONG) ?? []).map((run, i) => run.totalMs / (paired[i]?.totalMs ?? NaN)),
  );
  rows.push([
    "replay --verify of the long session vs rein state",
    fmt(replayRatio, "×", 2),
    "< 2×",
    verdict(replayRatio, (v) => v < 2),
    `median of ${paired.length} pairs; ${fmt(totalMs(REPLAY_LONG), "ms")} vs ` +
    `${fmt(totalMs(STATE_PAIRED), "ms")} (the state runs alone: ${
      fmt(totalMs(STATE_LONG), "ms")
    }); ` +
    `${fmt(totalMs(REPLAY_LONG) / totalMs(STATE_LONG_COLD), "×", 2)} state of the log alone ` +
    `(${fmt(totalMs(STATE_LONG_COLD), "ms")}); replay's peak ${fmt(peak(REPLAY_LONG), "MB")}` +
    (long ? `; log ${fmt(long.logBytes / 1e6, "MB")}` : ""),
  ]);
  rows.push([
    `resume in ${SIZE} events: launch → first request`,
    fmt(firstMs(RESUME), "ms", 0),
    "< 1000 ms",
    verdict(firstMs(RESUME), (v) => v < 1000),
    `peak ${fmt(peak(RESUME), "MB")}; without a snapshot ${fmt(firstMs(RESUME_COLD), "ms", 0)}, ` +
    `peak ${fmt(peak(RESUME_COLD), "MB")}`,
  ]);
  const parseMs = median(folds.get(PARSE) ?? []);
  const foldMs = median(folds.get(FOLD) ?? []);
  rows.push([
    `full fold of ${SIZE} events vs JSON.parse`,
    fmt((parseMs / foldMs) * 100, "%", 0),
    "≥ 60%",
    verdict(parseMs / foldMs, (v) => v >= 0.6),
    `${fmt(foldMs, "ms", 0)} vs ${fmt(parseMs, "ms", 0)}; ` +
    `${fmt(EVENTS / foldMs / 1000, "M events/s", 2)}`,
  ]);
  rows.push([
    `rein state of ${SIZE} events: peak memory`,
    fmt(peak(STATE_BIG), "MB"),
    "< 200 MB",
    verdict(peak(STATE_BIG), (v) => v < 200),
    `${fmt(totalMs(STATE_BIG), "ms", 0)} launch → exit`,
  ]);
  const load = loadAverage();
  return `scale_bench summary (medians of timed runs; peak memory is the max; ` +
    `load average at the end ${load} on ${navigator.hardwareConcurrency} CPUs)\n${table(rows)}`;
}

/** The 1, 5 and 15 minute load averages, where /proc has them. */
function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "n/a";
  }
}
