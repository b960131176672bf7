/**
 * One side of tests/claim_race_test.ts, run as its own OS process:
 * `deno run -A tests/_claim_racer.ts <log> <session> <agent> <other> <runs> <barrier dir>`.
 * For run i = 1…runs: it waits until task i is what its idle teammate would claim by itself
 * (`idleClaim`), meets the other racer at a barrier (each writes a file and waits for the
 * other's), then decides the claim under the log's lock exactly as a woken teammate does
 * (`claimArrivals` in `appendDecided`, its events then `arrival.injected`). The winner completes
 * the task (so it holds none for the next run). Prints one line per run: `i won` or `i lost`.
 */
import { join } from "node:path";
import type { NewEvent } from "../events/event_types.ts";
import { openJsonlStore } from "../events/jsonl_store.ts";
import { claimArrivals, claimKey, idleClaim } from "../core/autonomy/mod.ts";
import { createHarness } from "../core/harness.ts";
import { liveEffects } from "../core/runner/live_effects.ts";

const [log, session, agent, other, runsText, barrier] = Deno.args;
if (!log || !session || !agent || !other || !runsText || !barrier) {
  throw new Error("Usage: _claim_racer.ts <log> <session> <agent> <other> <runs> <barrier dir>");
}
const harness = await createHarness({
  openStore: (onEvent, { eventTypes }) =>
    openJsonlStore(log, { clock: () => new Date(), onEvent, eventTypes }),
  workspace: join(log, "..", ".."),
  effects: liveEffects({ baseURL: "http://127.0.0.1:9", apiKey: "sk-unused", retry: {} }),
});
const { store, state } = harness;
const never = new AbortController().signal;

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

for (let i = 1; i <= Number(runsText); i++) {
  // Task i ready for this teammate, as its wake source would see it.
  while (idleClaim(state, session, agent)?.task.id !== i) {
    await store.waitForAppend(store.lastSeq, never, 5);
  }
  await Deno.writeTextFile(join(barrier, `${i}-${agent}`), "");
  while (!await exists(join(barrier, `${i}-${other}`))) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const stored = await store.appendDecided(() =>
    // Task i only: decided late, the loser could otherwise take the next run's task.
    claimArrivals({ state, session, agent }).filter((arrival) => arrival.key === claimKey(i))
      .flatMap(({ source, key, seq, text, events }) => [
        ...(events ?? []).map((event) => ({ ...event, session, agent }) as NewEvent),
        { type: "arrival.injected", session, agent, data: { source, key, seq, text } } as NewEvent,
      ]), { sync: false });
  const won = stored.some((event) => event.type === "task.claimed");
  if (won) {
    await store.append([{ type: "task.completed", session, agent, data: { id: i } }]);
  }
  console.log(`${i} ${won ? "won" : "lost"}`);
}
await harness.close();
