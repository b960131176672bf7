/**
 * The scale bench's long session: one headless run of the real CLI against the fake server, the
 * model asking for `read_file` of a 50 KB file (`REIN_BENCH_TOOL_BYTES`) in each of `ROUNDS`
 * rounds (`REIN_BENCH_ROUNDS`, default 1,000) and answering with text in the last. The context
 * window is capped (`CLAUDE_CODE_AUTO_COMPACT_WINDOW`, `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`, from
 * `REIN_BENCH_COMPACT_WINDOW` and `REIN_BENCH_COMPACT_PCT`, default 50,000 tokens and 60%) so
 * that automatic compaction runs several times (5 in 1,000 rounds when it was written; the
 * 20,000-token window of tests/compaction_test.ts compacts every ~8 rounds); the fake server answers every summary request with a summary
 * (`summaryRule`), outside the script's count of rounds.
 *
 * Measured from the fake server's side, request by request, without keeping the bodies:
 * - **turn gap** of round i: the fake's `finishedAt` of round i's response to the `receivedAt` of
 *   round i + 1's request, minus the read's `durationMs` from the run's log (the harness's own
 *   time); gaps with a compaction between them are kept apart;
 * - **cache stability**: for each request after the first, the bytes at its start that repeat the
 *   previous request's, over its size (what a provider's prompt cache can serve).
 *
 * @module
 */
import { join } from "node:path";
import { readLog } from "../events/mod.ts";
import {
  isSummaryRequest,
  message,
  type RecordedRequest,
  startFakeAnthropic,
  summaryRule,
  text,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { type CliRun, runCli } from "./_scale_process.ts";

/** How the long session runs. */
export interface LongSessionOptions {
  rounds: number;
  toolBytes: number;
  /** `CLAUDE_CODE_AUTO_COMPACT_WINDOW`, in tokens. */
  window: number;
  /** `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`. */
  pct: number;
}

/** The long session's settings from the environment, with their defaults. */
export function longSessionOptions(): LongSessionOptions {
  const number = (name: string, fallback: number) => {
    const value = Number(Deno.env.get(name) ?? fallback);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
    return value;
  };
  return {
    rounds: number("REIN_BENCH_ROUNDS", 1000),
    toolBytes: number("REIN_BENCH_TOOL_BYTES", 50_000),
    window: number("REIN_BENCH_COMPACT_WINDOW", 50_000),
    pct: number("REIN_BENCH_COMPACT_PCT", 60),
  };
}

/** One request the fake server received, without its body. */
export interface RequestFacts {
  /** The model round it asks for (0-based), or -1 for a summary request. */
  round: number;
  bytes: number;
  /** Bytes at its start equal to the previous request's. */
  repeated: number;
  receivedAt: number;
  finishedAt: number;
}

/** What the long session produced. */
export interface LongSession {
  options: LongSessionOptions;
  requests: RequestFacts[];
  /** Turn gap per round (tool time excluded) with no compaction before the next request. */
  gaps: { round: number; ms: number }[];
  /** The same for rounds followed by a compaction (its summary call included). */
  compactionGapsMs: number[];
  compactions: number;
  run: CliRun;
  /** The workspace and log of the run, for replay and state (the caller removes it). */
  workspace: string;
  logPath: string;
  logBytes: number;
}

const PROMPT = "Read every part of the data and report what it says";

/** Run the long session once. Throws when the run fails or does not end as scripted. */
export async function runLongSession(options: LongSessionOptions): Promise<LongSession> {
  const workspace = await Deno.makeTempDir({ prefix: "rein-scale-session-" });
  const files = 20;
  await Deno.mkdir(join(workspace, "data"));
  for (let i = 0; i < files; i++) {
    await Deno.writeTextFile(join(workspace, "data", `part_${i}.txt`), data(i, options.toolBytes));
  }
  const facts: RequestFacts[] = [];
  let previous = "";
  let round = 0;
  const onRequest = (request: RecordedRequest) => {
    const summary = isSummaryRequest(request);
    facts.push({
      round: summary ? -1 : round++,
      bytes: request.rawBody.length,
      repeated: sharedPrefix(previous, request.rawBody),
      receivedAt: request.receivedAt,
      finishedAt: NaN,
    });
    previous = request.rawBody;
  };
  const script = (_request: RecordedRequest, index: number) => {
    if (index >= options.rounds - 1) return message("Every part is read.");
    const path = `data/part_${index % files}.txt`;
    return message([
      text(`Reading ${path}.`),
      toolUse(`toolu_read_${index}`, "read_file", { path }),
    ]);
  };
  await using fake = await startFakeAnthropic({
    script,
    onRequest,
    rules: [summaryRule()],
    retainBodies: false,
  });
  const run = await runCli({
    args: ["agent", "-p", PROMPT, "--workspace", workspace],
    fake,
    env: {
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: String(options.window),
      CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: String(options.pct),
    },
  });
  facts.forEach((fact, i) => fact.finishedAt = fake.requests[i]?.finishedAt ?? NaN);
  if (round !== options.rounds) {
    throw new Error(
      `Expected ${options.rounds} model rounds, got ${round} (log kept in ${workspace}): ` +
        `${run.stdout.slice(-500)}${run.stderr.slice(-500)}`,
    );
  }
  const logPath = join(workspace, ".rein", "events.jsonl");
  const toolMs = new Map<string, number>();
  for await (const event of readLog(logPath)) {
    if (event.type === "tool.completed") toolMs.set(event.data.callId, event.data.durationMs);
  }
  const gaps: { round: number; ms: number }[] = [];
  const compactionGapsMs: number[] = [];
  for (let i = 0; i < facts.length; i++) {
    const fact = facts[i]!;
    if (fact.round < 0 || fact.round >= options.rounds - 1) continue;
    const nextRound = facts.findIndex((later, j) => j > i && later.round >= 0);
    const next = facts[nextRound];
    if (!next) continue;
    const ms = next.receivedAt - fact.finishedAt - (toolMs.get(`toolu_read_${fact.round}`) ?? 0);
    if (nextRound === i + 1) gaps.push({ round: fact.round, ms });
    else compactionGapsMs.push(ms);
  }
  return {
    options,
    requests: facts,
    gaps,
    compactionGapsMs,
    compactions: facts.filter((fact) => fact.round < 0).length,
    run,
    workspace,
    logPath,
    logBytes: (await Deno.stat(logPath)).size,
  };
}

/**
 * Share of request bytes repeating the previous request's start: the mean over pairs, the share
 * of all bytes, and the mean over steady pairs (neither a summary request nor the first request
 * after one).
 */
export function cacheStability(
  requests: readonly RequestFacts[],
): { mean: number; bytes: number; steady: number } {
  const later = requests.slice(1);
  const share = (r: RequestFacts) => r.repeated / r.bytes;
  const mean = (list: readonly RequestFacts[]) =>
    list.reduce((sum, r) => sum + share(r), 0) / list.length;
  const bytes = later.reduce((sum, r) => sum + r.repeated, 0) /
    later.reduce((sum, r) => sum + r.bytes, 0);
  const steady = later.filter((r, i) => r.round >= 0 && (requests[i]?.round ?? -1) >= 0);
  return { mean: mean(later), bytes, steady: mean(steady) };
}

/** Lines of ~100 characters, `bytes` in all, different for each file. */
function data(file: number, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const line = `part ${file} line ${i}: ${"the harness reads this data line ".repeat(3)}`
      .slice(0, 99);
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`.slice(0, bytes);
}

function sharedPrefix(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
