/**
 * Test fixture run as a separate OS process by `events/concurrency_test.ts`:
 * `deno run -A testing/append_fixture.ts <log> <agent> <count> <seed> [append|count]`.
 * - `append` (the default) appends `count` `user.prompted` events with texts `<agent>:0`,
 *   `<agent>:1`, … in batches of random small size, some of them synced.
 * - `count` raises a counter shared by every writer `count` times, one `appendDecided` each:
 *   the counter is folded from the `count:<n>` prompts by a listener, and each step appends
 *   `count:<n + 1>`, so a decision made on a stale state shows up as a repeated number.
 */
import { openJsonlStore } from "../events/jsonl_store.ts";
import type { NewEvent } from "../events/event_types.ts";

/** mulberry32: a tiny deterministic PRNG, so a failing run can be repeated. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main(): Promise<void> {
  const [path, agent, countText, seedText, mode = "append"] = Deno.args;
  if (path === undefined || agent === undefined || !["append", "count"].includes(mode)) {
    throw new Error("Usage: append_fixture.ts <log> <agent> <count> <seed> [append|count]");
  }
  const count = Number(countText ?? "2000");
  const next = random(Number(seedText ?? "1"));
  if (mode === "count") return await raiseCounter(path, agent, count, next);
  const store = await openJsonlStore(path, { clock: () => new Date() });
  let sent = 0;
  while (sent < count) {
    const size = Math.min(count - sent, 1 + Math.floor(next() * 8));
    const batch: NewEvent[] = [];
    for (let i = 0; i < size; i++) {
      batch.push({
        type: "user.prompted",
        session: "s1",
        agent,
        data: { text: `${agent}:${sent + i}` },
      });
    }
    await store.append(batch, { sync: next() < 0.2 });
    sent += size;
  }
  await store.close();
}

async function raiseCounter(
  path: string,
  agent: string,
  times: number,
  next: () => number,
): Promise<void> {
  let counter = 0;
  const store = await openJsonlStore(path, {
    clock: () => new Date(),
    onEvent: (event) => {
      if (event.type !== "user.prompted") return;
      const match = /^count:(\d+)$/.exec(event.data.text);
      if (match) counter = Number(match[1]);
    },
  });
  for (let i = 0; i < times; i++) {
    await store.appendDecided(() => [
      { type: "user.prompted", session: "s1", agent, data: { text: `count:${counter + 1}` } },
    ], { sync: next() < 0.2 });
  }
  await store.close();
}

if (import.meta.main) await main();
