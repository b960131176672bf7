import assert from "node:assert/strict";
import { join } from "node:path";
import { openJsonlStore } from "./jsonl_store.ts";
import { readEvents } from "./read_log.ts";
import { fixedClock, prompt, tempDir } from "../testing/events.ts";

const FIXTURE = new URL("../testing/append_fixture.ts", import.meta.url).pathname;

Deno.test("four processes appending 2,000 events each leave one gapless log of 8,000", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, ".rein", "events.jsonl");
  const agents = ["w1", "w2", "w3", "w4"];
  const results = await Promise.all(agents.map((agent, i) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", FIXTURE, path, agent, "2000", String(i + 1)],
      stdout: "piped",
      stderr: "piped",
    }).output()
  ));
  for (const result of results) {
    assert.equal(result.code, 0, new TextDecoder().decode(result.stderr));
  }

  const text = await Deno.readTextFile(path);
  assert.ok(text.endsWith("\n"));
  const lines = text.slice(0, -1).split("\n");
  assert.equal(lines.length, 8000);
  const next = new Map(agents.map((a) => [a, 0]));
  lines.forEach((l, index) => {
    const event = JSON.parse(l);
    assert.equal(event.seq, index + 1);
    const expected = next.get(event.agent);
    assert.equal(event.data.text, `${event.agent}:${expected}`, "each writer's events in order");
    next.set(event.agent, (expected ?? NaN) + 1);
  });
  assert.deepEqual([...next.values()], [2000, 2000, 2000, 2000]);
  assert.equal((await readEvents(path)).length, 8000);
});

Deno.test("four processes raising one counter with appendDecided never decide on a stale count", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, ".rein", "events.jsonl");
  const agents = ["w1", "w2", "w3", "w4"];
  const results = await Promise.all(agents.map((agent, i) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", FIXTURE, path, agent, "150", String(i + 1), "count"],
      stdout: "piped",
      stderr: "piped",
    }).output()
  ));
  for (const result of results) {
    assert.equal(result.code, 0, new TextDecoder().decode(result.stderr));
  }
  const events = await readEvents(path);
  assert.deepEqual(
    events.map((e) => e.type === "user.prompted" ? e.data.text : e.type),
    Array.from({ length: 600 }, (_, i) => `count:${i + 1}`),
  );
  for (const agent of agents) {
    assert.equal(events.filter((e) => e.agent === agent).length, 150);
  }
});

Deno.test("two stores in one process interleave appends without a gap", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const a = await openJsonlStore(path, { clock: fixedClock() });
  const b = await openJsonlStore(path, { clock: fixedClock() });
  const seenByA: number[] = [];
  a.subscribe((e) => seenByA.push(e.seq));
  await Promise.all(
    Array.from({ length: 50 }, (_, i) => [
      a.append([prompt(`a${i}`, "a")]),
      b.append([prompt(`b${i}`, "b"), prompt(`b${i}'`, "b")], { sync: i % 10 === 0 }),
    ]).flat(),
  );
  await a.catchUp();
  assert.deepEqual(seenByA, Array.from({ length: 150 }, (_, i) => i + 1));
  await a.close();
  await b.close();
  assert.deepEqual((await readEvents(path)).map((e) => e.seq), seenByA);
});
