import assert from "node:assert/strict";
import { join } from "node:path";
import { openJsonlStore } from "./jsonl_store.ts";
import { readEvents } from "./read_log.ts";
import {
  lineEndingAt,
  type PlacedStartPoint,
  sha256Hex,
  type StartPoint,
  StartPointError,
} from "./start_point.ts";
import type { Envelope } from "./event_types.ts";
import { fixedClock, line, prompt, rejection, tempDir } from "../testing/events.ts";

/** A log of `count` prompts, and the start point after event `seq`. */
async function logWithPoint(
  dir: string,
  count: number,
  seq: number,
): Promise<{ path: string; point: PlacedStartPoint }> {
  const path = join(dir, "events.jsonl");
  const lines = Array.from({ length: count }, (_, i) => line(i + 1));
  await Deno.writeTextFile(path, lines.map((l) => `${l}\n`).join(""));
  const offset = lines.slice(0, seq).reduce((sum, l) => sum + l.length + 1, 0);
  return { path, point: { seq, offset, lineHash: await sha256Hex(lines[seq - 1]!) } };
}

Deno.test("a store opened at a start point delivers only the events after it", async () => {
  await using dir = await tempDir();
  const { path, point } = await logWithPoint(dir.path, 5, 3);
  const seen: Envelope[] = [];
  const store = await openJsonlStore(path, {
    clock: fixedClock(),
    start: point,
    onEvent: (e) => seen.push(e),
  });
  try {
    assert.deepEqual(seen.map((e) => e.seq), [4, 5]);
    assert.equal(store.lastSeq, 5);
    const [appended] = await store.append([prompt("six")]);
    assert.equal(appended?.seq, 6);
    assert.deepEqual(store.position, { seq: 6, offset: (await Deno.stat(path)).size });
  } finally {
    await store.close();
  }
  assert.deepEqual((await readEvents(path)).map((e) => e.seq), [1, 2, 3, 4, 5, 6]);
});

Deno.test("a start point that does not hold in the log is refused, naming why", async () => {
  await using dir = await tempDir();
  const { path, point } = await logWithPoint(dir.path, 5, 3);
  const cases: [StartPoint, RegExp][] = [
    [{ ...point, offset: point.offset - 1 }, /no line ends at byte/],
    [{ ...point, lineHash: "0".repeat(64) }, /not the one recorded/],
    [{ ...point, seq: 2 }, /expected seq 2, found 3/],
    [{ ...point, offset: 10_000 }, /fewer than 10000/],
  ];
  for (const [start, reason] of cases) {
    const error = await rejection(openJsonlStore(path, { clock: fixedClock(), start }));
    assert.ok(error instanceof StartPointError, String(error));
    assert.match(error.message, reason);
  }
});

Deno.test("a store opened at a start point still stops on a forged line, rescuing what it read", async () => {
  await using dir = await tempDir();
  const { path, point } = await logWithPoint(dir.path, 4, 2);
  const store = await openJsonlStore(path, { clock: fixedClock(), start: point });
  try {
    await Deno.writeTextFile(path, `${line(9)}\n`, { append: true });
    const error = await rejection(store.catchUp());
    assert.match(String(error), /Line 5 .* is not the next event/);
    assert.match(String(error), /seq 3 to 4/);
    const rescued = (await Array.fromAsync(Deno.readDir(dir.path)))
      .find((entry) => entry.name.includes(".rescued-"));
    assert.ok(rescued, "a rescue copy is written");
    const copy = await Deno.readTextFile(join(dir.path, rescued.name));
    assert.equal(copy, `${line(3)}\n${line(4)}\n`, "it holds the lines read after the start");
  } finally {
    await store.close();
  }
});

Deno.test("a reader started at a start point reads on from there, only the sessions asked", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const lines = [1, 2, 3, 4].map((seq) => line(seq).replace('"s1"', seq % 2 ? '"s1"' : '"s2"'));
  await Deno.writeTextFile(path, lines.map((l) => `${l}\n`).join(""));
  const start = { seq: 1, offset: lines[0]!.length + 1 };
  let end: unknown;
  const events = await readEvents(path, { start, sessions: ["s2"], onEnd: (at) => end = at });
  assert.deepEqual(events.map((e) => [e.seq, e.session]), [[2, "s2"], [4, "s2"]]);
  assert.deepEqual(end, { seq: 4, offset: (await Deno.stat(path)).size });
});

Deno.test("the line ending at an offset is found across read steps, or not at all", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "log");
  const long = "x".repeat(200_000);
  await Deno.writeTextFile(path, `a\n${long}\nb\n`);
  using file = await Deno.open(path);
  assert.equal(new TextDecoder().decode(await lineEndingAt(file, 2)), "a");
  assert.equal(new TextDecoder().decode(await lineEndingAt(file, 3 + long.length)), long);
  assert.equal(await lineEndingAt(file, 4 + long.length), undefined);
});
