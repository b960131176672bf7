import assert from "node:assert/strict";
import type { NewEvent } from "../../events/event_types.ts";
import { MemoryEventStore } from "../../events/memory_store.ts";
import { waitForEvent } from "./wait_for_event.ts";

const prompted = (agent: string, text: string): NewEvent => ({
  type: "user.prompted",
  data: { text },
  session: "s1",
  agent,
});

const byText = (text: string) => (event: { data: { text: string } }) => event.data.text === text;

Deno.test("waitForEvent resolves with the first matching event appended after it began waiting", async () => {
  const store = new MemoryEventStore({ clock: () => new Date() });
  await store.append([prompted("lead", "ask")]);
  const waiting = waitForEvent(
    store,
    store.lastSeq,
    "user.prompted",
    byText("yes"),
    new AbortController().signal,
  );
  await store.append([prompted("helper", "no")]);
  await store.append([prompted("helper", "yes"), prompted("other", "yes")]);
  const found = await waiting;
  assert.equal(found.agent, "helper");
  assert.equal(found.seq, 3);
});

Deno.test("waitForEvent finds a matching event already in the log after afterSeq, the earliest first, and none before it", async () => {
  const store = new MemoryEventStore({ clock: () => new Date() });
  await store.append([prompted("helper", "yes")]); // seq 1: before afterSeq, not it
  await store.append([prompted("lead", "ask")]); // seq 2: afterSeq
  await store.append([prompted("a", "yes"), prompted("b", "yes")]); // seqs 3 and 4
  const found = await waitForEvent(
    store,
    2,
    "user.prompted",
    byText("yes"),
    new AbortController().signal,
  );
  assert.equal(found.seq, 3);
  assert.equal(found.agent, "a");
});

Deno.test("waitForEvent rejects with the signal's reason when it aborts, and stops listening", async () => {
  const store = new MemoryEventStore({ clock: () => new Date() });
  const controller = new AbortController();
  const waiting = waitForEvent(store, 0, "user.prompted", byText("yes"), controller.signal);
  await store.append([prompted("helper", "no")]);
  controller.abort(new Error("Stopped waiting"));
  await assert.rejects(waiting, /Stopped waiting/);
  // An event after the abort changes nothing (nobody is listening any more).
  await store.append([prompted("helper", "yes")]);
});
