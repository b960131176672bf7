/**
 * The PostgreSQL store against the JSONL store, side by side in one run:
 * `deno run -A bench/postgres_bench.ts` (or as one bench of `deno task bench`).
 * - Appends per second with 1, 4 and 16 writers appending one event at a time at once, each
 *   durable (JSONL: `sync: true`; PostgreSQL: a commit with fsync on), and that their seqs are
 *   gapless.
 * - Wake-up latency: a writer appends, another store's `waitForAppend` returns (JSONL: its 50 ms
 *   poll; PostgreSQL: LISTEN/NOTIFY). Median and 95th percentile of 40.
 * - `rein replay --verify -q` of a 1,000-round session (`REIN_BENCH_ROUNDS`), from its JSONL file
 *   and from PostgreSQL (`--store`, imported with `rein log import`); the ratio should stay under
 *   1.5. Needs PostgreSQL 15's server programs (Debian postgresql-15); says so and stops without.
 */
import { join } from "node:path";
import { openJsonlStore } from "../events/jsonl_store.ts";
import { openPostgresStore } from "../events/postgres/postgres_store.ts";
import { importJsonlLog } from "../events/postgres/log_transfer.ts";
import type { EventStore } from "../events/store.ts";
import { prompt } from "../testing/events.ts";
import { postgresMissing, startTestPostgres } from "../testing/postgres_server.ts";
import { longSessionOptions, runLongSession } from "./_scale_session.ts";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../cli/main.ts", import.meta.url));
const clock = () => new Date("2026-11-22T10:00:00.000Z");
const WRITERS = [1, 4, 16];
/** Events each configuration appends, spread over its writers. */
const APPENDS = 640;
const WAKES = 40;

/** Measure everything once and print the table. */
async function measure(): Promise<void> {
  const missing = postgresMissing();
  if (missing !== undefined) {
    console.log(missing);
    return;
  }
  await using server = await startTestPostgres({ fsync: true });
  const dir = await Deno.makeTempDir({ prefix: "rein-pg-bench-" });
  try {
    console.log("appends/s (one event per append, durable), by concurrent writers:");
    for (const writers of WRITERS) {
      const jsonl = await appendRate(
        writers,
        (onEvent) => openJsonlStore(join(dir, `appends${writers}.jsonl`), { clock, onEvent }),
        true,
      );
      const pg = await appendRate(
        writers,
        (onEvent) => openPostgresStore(server.url(`appends${writers}`), { clock, onEvent }),
        false,
      );
      console.log(
        `  ${String(writers).padStart(2)} writers: JSONL ${jsonl} /s, PostgreSQL ${pg} /s`,
      );
    }
    const jsonlWake = await wakeLatency(() => openJsonlStore(join(dir, "wake.jsonl"), { clock }));
    const pgWake = await wakeLatency(() => openPostgresStore(server.url("wake"), { clock }));
    console.log(
      `wake-up latency (append → another store's waitForAppend): JSONL poll ${jsonlWake}, ` +
        `PostgreSQL NOTIFY ${pgWake}`,
    );
    await replayRatio(server.url("replay"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Events per second that `writers` stores append at once, checking the seqs are gapless. */
async function appendRate(
  writers: number,
  open: (onEvent: () => void) => Promise<EventStore>,
  sync: boolean,
): Promise<number> {
  const stores: EventStore[] = [];
  for (let i = 0; i < writers; i++) stores.push(await open(() => {}));
  const each = Math.ceil(APPENDS / writers);
  const seqs: number[] = [];
  const started = performance.now();
  await Promise.all(stores.map(async (store, w) => {
    for (let i = 0; i < each; i++) {
      const [event] = await store.append([prompt(`w${w} ${i}`, `w${w}`)], { sync });
      seqs.push(event!.seq);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  for (const store of stores) await store.close();
  seqs.sort((a, b) => a - b);
  if (seqs.some((seq, i) => seq !== i + 1)) throw new Error(`Seqs not gapless with ${writers}`);
  return Math.round(seqs.length / seconds);
}

/** Median and 95th percentile of the time from an append to another store's wake-up. */
async function wakeLatency(open: () => Promise<EventStore>): Promise<string> {
  const writer = await open();
  const waiter = await open();
  const times: number[] = [];
  for (let i = 0; i < WAKES; i++) {
    const waiting = waiter.waitForAppend(waiter.lastSeq, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 5 + (i * 7) % 40));
    const appended = performance.now();
    await writer.append([prompt(`wake ${i}`)]);
    await waiting;
    times.push(performance.now() - appended);
  }
  await writer.close();
  await waiter.close();
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`;
}

/** Replay a long session from its file and from PostgreSQL; print both times and the ratio. */
async function replayRatio(store: string): Promise<void> {
  const options = longSessionOptions();
  const session = await runLongSession(options);
  try {
    const events = await importJsonlLog(session.logPath, store);
    const file = await replayTimes(["replay", "--verify", "-q", session.logPath]);
    const pg = await replayTimes(["replay", "--verify", "-q", "--store", store]);
    console.log(
      `replay --verify of ${options.rounds} rounds (${events} events): JSONL ${file} ms, ` +
        `PostgreSQL ${pg} ms, ratio ${(pg / file).toFixed(2)} (should be under 1.5)`,
    );
  } finally {
    await Deno.remove(session.workspace, { recursive: true });
  }
}

/** The median wall time of three runs of `rein args` (each must exit 0). */
async function replayTimes(args: string[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", CLI, ...args],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!output.success) {
      throw new Error(`rein ${args.join(" ")} failed: ${new TextDecoder().decode(output.stderr)}`);
    }
    times.push(performance.now() - started);
  }
  return Math.round(times.sort((a, b) => a - b)[1]!);
}

if (import.meta.main) {
  await measure();
} else {
  Deno.bench({
    name: "PostgreSQL store against JSONL (the table is printed)",
    n: 1,
    warmup: 0,
    fn: measure,
  });
}
