/**
 * Event log throughput: `deno bench -A bench/log_bench.ts`.
 * Rebuild reads a realistic 100k-event log and folds it, next to plain `JSON.parse` of the same
 * lines already split in memory (the baseline). Appends measure batched and single durable writes.
 */
import { join } from "node:path";
import { type Envelope, type NewEvent, openJsonlStore, readLog } from "../events/mod.ts";

const EVENTS = 100_000;
const clock = () => new Date("2026-11-22T10:00:00.000Z");
const dir = await Deno.makeTempDir({ prefix: "rein-log-bench-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));

/** Deterministic filler text of about `size` characters. */
function words(seed: number, size: number): string {
  const vocabulary = [
    "the",
    "file",
    "function",
    "returns",
    "const",
    "error",
    "test",
    "passes",
    "src/main.ts",
    "import",
    "await",
    "deno",
    "value",
    "string",
    "ok",
    "line",
    "{",
    "}",
    "=>",
  ];
  let text = "";
  for (let i = seed; text.length < size; i = (i * 1103515245 + 12345) % 2147483648) {
    text += `${vocabulary[i % vocabulary.length]} `;
  }
  return text;
}

/** One turn of a realistic session: prompt, model rounds with tool calls, end. */
function turn(n: number): NewEvent[] {
  const origin = { session: `session-${Math.floor(n / 50)}`, agent: n % 7 === 0 ? "mate" : "lead" };
  const events: NewEvent[] = [
    { ...origin, type: "user.prompted", data: { text: words(n, 120) } },
    { ...origin, type: "turn.started", data: { roundsBefore: n, maxTurns: null } },
  ];
  for (let round = 0; round < 3; round++) {
    const callId = `toolu_${n}_${round}`;
    const input = { command: `deno test -A src/${n}_${round}_test.ts`, timeout: 120000 };
    events.push(
      {
        ...origin,
        type: "model.requested",
        data: { model: "claude", digest: "ab".repeat(32), attempt: 1 },
      },
      {
        ...origin,
        type: "model.responded",
        data: {
          messageId: `msg_${n}_${round}`,
          model: "claude-sonnet",
          content: [
            { type: "text", text: words(n + round, 300) },
            { type: "tool_use", id: callId, name: "bash", input },
          ],
          stopReason: "tool_use",
          usage: { input_tokens: 1200 + n, output_tokens: 150, cache_read_input_tokens: 900 },
          requestId: `req_${n}_${round}`,
        },
      },
      { ...origin, type: "tool.requested", data: { callId, name: "bash", input } },
      {
        ...origin,
        type: "tool.completed",
        data: {
          callId,
          name: "bash",
          content: words(n * 3 + round, 200 + (n % 5) * 100),
          isError: round === 2 && n % 11 === 0,
          durationMs: 40 + n % 300,
        },
      },
    );
  }
  events.push({ ...origin, type: "turn.ended", data: { reason: "completed", rounds: n + 1 } });
  return events;
}

const logPath = join(dir, "events.jsonl");
{
  const store = await openJsonlStore(logPath, { clock });
  let pending: NewEvent[] = [];
  for (let n = 0; store.lastSeq + pending.length < EVENTS; n++) {
    pending.push(...turn(n));
    if (pending.length >= 1000 || store.lastSeq + pending.length >= EVENTS) {
      await store.append(pending.slice(0, EVENTS - store.lastSeq));
      pending = [];
    }
  }
  await store.close();
}
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

const sample = turn(1);
const batch = Array.from({ length: 100 }, (_, i) => sample[i % sample.length]!);
const batchStore = await openJsonlStore(join(dir, "batched.jsonl"), { clock });
const singleStore = await openJsonlStore(join(dir, "single.jsonl"), { clock });
const first = sample[0]!;

Deno.bench({ name: "append 100 events + sync", group: "append" }, async () => {
  await batchStore.append(batch, { sync: true });
});

Deno.bench({ name: "append 1 event + sync", group: "append" }, async () => {
  await singleStore.append([first], { sync: true });
});
