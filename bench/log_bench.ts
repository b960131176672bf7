/**
 * Event log throughput: `deno bench -A bench/log_bench.ts`.
 * Rebuild reads a realistic 100k-event log (testing/generate_log.ts) and folds it, next to plain
 * `JSON.parse` of the same lines already split in memory (the baseline). Appends measure batched
 * and single durable writes.
 */
import { join } from "node:path";
import { type Envelope, openJsonlStore, readLog } from "../events/mod.ts";
import { generateEvents, generateLog } from "../testing/generate_log.ts";

const EVENTS = 100_000;
const clock = () => new Date("2026-11-22T10:00:00.000Z");
const dir = await Deno.makeTempDir({ prefix: "rein-log-bench-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));

const logPath = join(dir, "events.jsonl");
await generateLog(logPath, { events: EVENTS });
const lines = (await Deno.readTextFile(logPath)).split("\n").slice(0, -1);
const megabytes = ((await Deno.stat(logPath)).size / 1e6).toFixed(1);
console.log(`log: ${lines.length} events, ${megabytes} MB`);

/** The trivial projection every rebuild folds: events per type and tool calls per agent. */
function fold(state: Map<string, number>, event: Envelope): void {
  state.set(event.type, (state.get(event.type) ?? 0) + 1);
  if (event.type === "tool.requested") state.set(event.agent, (state.get(event.agent) ?? 0) + 1);
}

function assertFolded(state: Map<string, number>): void {
  let total = 0;
  for (const [key, count] of state) if (key.includes(".")) total += count;
  if (total !== EVENTS) throw new Error(`Folded ${total} events, expected ${EVENTS}`);
}

// Enough runs that one garbage collection or a busy neighbour does not decide the ratio.
const REBUILD = { group: "rebuild", n: 30, warmup: 5 } as const;

Deno.bench({ ...REBUILD, name: "JSON.parse of pre-split lines", baseline: true }, () => {
  const state = new Map<string, number>();
  for (const line of lines) fold(state, JSON.parse(line));
  assertFolded(state);
});

Deno.bench({ ...REBUILD, name: "rebuild via openJsonlStore" }, async () => {
  const state = new Map<string, number>();
  const store = await openJsonlStore(logPath, { clock, onEvent: (e) => fold(state, e) });
  await store.close();
  assertFolded(state);
});

Deno.bench({ ...REBUILD, name: "rebuild via readLog" }, async () => {
  const state = new Map<string, number>();
  for await (const event of readLog(logPath)) fold(state, event);
  assertFolded(state);
});

const batch = generateEvents({ events: 100 }).map(({ event }) => event).toArray();
const batchStore = await openJsonlStore(join(dir, "batched.jsonl"), { clock });
const singleStore = await openJsonlStore(join(dir, "single.jsonl"), { clock });
const first = batch[0]!;

Deno.bench({ name: "append 100 events + sync", group: "append" }, async () => {
  await batchStore.append(batch, { sync: true });
});

Deno.bench({ name: "append 1 event + sync", group: "append" }, async () => {
  await singleStore.append([first], { sync: true });
});
