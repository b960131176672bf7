/**
 * Test fixture run as a separate OS process by `concurrency_test.ts`:
 * `deno run -A events/_append_fixture.ts <log> <agent> <count> <seed>` appends `count`
 * `user.prompted` events with texts `<agent>:0`, `<agent>:1`, … in batches of random small size,
 * some of them synced.
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
  const [path, agent, countText, seedText] = Deno.args;
  if (path === undefined || agent === undefined) {
    throw new Error("Usage: _append_fixture.ts <log> <agent> <count> <seed>");
  }
  const count = Number(countText ?? "2000");
  const next = random(Number(seedText ?? "1"));
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

if (import.meta.main) await main();
