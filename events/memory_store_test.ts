import assert from "node:assert/strict";
import { MemoryEventStore } from "./memory_store.ts";
import type { Envelope } from "./event_types.ts";
import { fixedClock, line, prompt } from "../testing/events.ts";

const clock = fixedClock();

Deno.test("a memory store starts from initial events and continues their seq", async () => {
  const initial = [1, 2].map((seq) => JSON.parse(line(seq)) as Envelope);
  const seen: number[] = [];
  const store = new MemoryEventStore({ clock, events: initial, onEvent: (e) => seen.push(e.seq) });
  assert.equal(store.lastSeq, 2);
  await store.append([prompt("c")]);
  assert.deepEqual(seen, [1, 2, 3]);
  assert.deepEqual(store.events.map((e) => e.seq), [1, 2, 3]);
});

Deno.test("a memory store refuses initial events that are not a gapless log", () => {
  const gap = [1, 3].map((seq) => JSON.parse(line(seq)) as Envelope);
  assert.throws(
    () => new MemoryEventStore({ clock, events: gap }),
    /Cannot use initial event 2: expected seq 2, found 3/,
  );
  const bad = { ...JSON.parse(line(1)), type: "nope" } as Envelope;
  assert.throws(() => new MemoryEventStore({ clock, events: [bad] }), /unknown event type "nope"/);
});

Deno.test("a memory store keeps events marked as encoded as they are, unless it has secrets", async () => {
  const marked = prompt("as recorded");
  const plain = new MemoryEventStore({ clock, isEncoded: (event) => event === marked });
  const [kept, written] = await plain.append([marked, prompt("as recorded")]);
  assert.equal(kept?.data, marked.data, "stored as it is");
  assert.deepEqual(kept, JSON.parse(line(1, { text: "as recorded" })));
  assert.notEqual(written?.data, marked.data, "written out and read back");
  assert.deepEqual(written?.data, marked.data);
  const secret = "sk-secret-value-123";
  const redacting = new MemoryEventStore({ clock, secrets: [secret], isEncoded: () => true });
  const [redacted] = await redacting.append([prompt(secret)]);
  assert.deepEqual(redacted?.data, { text: "[REDACTED]" });
});

Deno.test("a memory store that keeps no events delivers each append once and holds none", async () => {
  const initial = [1, 2].map((seq) => JSON.parse(line(seq)) as Envelope);
  const seen: number[] = [];
  const store = new MemoryEventStore({
    clock,
    events: initial,
    keep: false,
    onEvent: (e) => seen.push(e.seq),
  });
  assert.deepEqual(seen, [1, 2]);
  const waiting = store.waitForAppend(2, new AbortController().signal);
  assert.deepEqual((await store.append([prompt("c")])).map((e) => e.seq), [3]);
  assert.deepEqual(await waiting, [], "the writer has had the event already");
  assert.deepEqual(seen, [1, 2, 3]);
  assert.equal(store.lastSeq, 3);
  assert.deepEqual(store.events, []);
  assert.deepEqual(await store.catchUp(), []);
  assert.throws(() => store.connect({ clock }), /keeps no events/);
});
