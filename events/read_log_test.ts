import assert from "node:assert/strict";
import { join } from "node:path";
import { LogCorruptionError } from "./errors.ts";
import { readEvents, readLog, readLogSync } from "./read_log.ts";
import { line, rejection, tempDir } from "../testing/events.ts";

Deno.test("readLog yields every event in order without touching the file", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const text = `${line(1)}\n${line(2)}\n${line(3)}\n`;
  await Deno.writeTextFile(path, text);
  const seqs: number[] = [];
  for await (const event of readLog(path)) seqs.push(event.seq);
  assert.deepEqual(seqs, [1, 2, 3]);
  assert.equal(await Deno.readTextFile(path), text);
});

Deno.test("readLog stops after the seq given as upTo, even before later damage", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  await Deno.writeTextFile(path, `${line(1)}\n${line(2)}\n{broken\n`);
  assert.deepEqual((await readEvents(path, { upTo: 2 })).map((e) => e.seq), [1, 2]);
  assert.deepEqual(await readEvents(path, { upTo: 0 }), []);
  await assert.rejects(readEvents(path), LogCorruptionError);
});

Deno.test("readLog reports an unterminated last line once and does not repair it", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const text = `${line(1)}\n${line(2).slice(0, 20)}`;
  await Deno.writeTextFile(path, text);
  const notices: string[] = [];
  const events = await readEvents(path, { onNotice: (m) => notices.push(m) });
  assert.deepEqual(events.map((e) => e.seq), [1]);
  assert.equal(notices.length, 1);
  assert.match(notices[0]!, /unterminated last line of ".*" \(line 2, 20 bytes\)/);
  assert.equal(await Deno.readTextFile(path), text);
  assert.equal([...Deno.readDirSync(dir.path)].length, 1, "no backup is made");
});

Deno.test("readLog reads lines longer than its read chunk and logs of many chunks", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const big = "é".repeat(1_500_000);
  const lines = [line(1, { text: big })];
  for (let seq = 2; seq <= 20_000; seq++) lines.push(line(seq));
  await Deno.writeTextFile(path, lines.map((l) => `${l}\n`).join(""));
  const events = await readEvents(path);
  assert.equal(events.length, 20_000);
  assert.equal((events[0]?.data as { text: string }).text, big);
  assert.equal(events.at(-1)?.seq, 20_000);
});

Deno.test("readLog refuses a damaged line with its line number", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  await Deno.writeTextFile(path, `${line(1)}\n${line(2).replace('"ts"', '"time"')}\n`);
  const error = await rejection(readEvents(path));
  assert.ok(error instanceof LogCorruptionError);
  assert.equal(error.line, 2);
  assert.equal(error.reason, 'missing "ts"');
});

Deno.test("readLog of a missing file throws NotFound naming the file", async () => {
  const path = "/nonexistent/rein/events.jsonl";
  const error = await rejection(readEvents(path));
  assert.ok(error instanceof Deno.errors.NotFound);
  assert.equal(error.message, `Cannot read the event log "${path}": no such file or directory`);
  assert.ok(error.cause instanceof Deno.errors.NotFound);
});

Deno.test("readLog of a directory names the path and says it is a directory", async () => {
  await using dir = await tempDir();
  const error = await rejection(readEvents(dir.path));
  assert.ok(error instanceof Deno.errors.IsADirectory, String(error));
  assert.equal(error.message, `Cannot read the event log "${dir.path}": is a directory`);
});

/** How many of this process's descriptors are open on `path` (Linux only). */
function openDescriptors(path: string): number {
  return [...Deno.readDirSync("/proc/self/fd")].filter((entry) => {
    try {
      return Deno.readLinkSync(`/proc/self/fd/${entry.name}`) === path;
    } catch {
      return false;
    }
  }).length;
}

Deno.test({
  name: "stopping a readLog loop early closes the file",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using dir = await tempDir();
    const path = join(await Deno.realPath(dir.path), "events.jsonl");
    // Written synchronously, so no descriptor of the writer is still closing.
    Deno.writeTextFileSync(path, `${line(1)}\n${line(2)}\n`);
    const before = openDescriptors(path);
    for await (const event of readLog(path)) {
      assert.equal(event.seq, 1);
      break;
    }
    assert.equal(openDescriptors(path), before);
    await assert.rejects(
      readEvents(path, { upTo: 5, upcasters: {} }).then(() => {
        throw new Error("done");
      }),
      /done/,
    );
    assert.equal(openDescriptors(path), before);
  },
});

Deno.test("readLogSync reads what readLog reads: long lines, many chunks, a start place, upTo, and one read after another", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const big = "é".repeat(1_500_000);
  const lines = [line(1), line(2, { text: big })];
  for (let seq = 3; seq <= 5_000; seq++) lines.push(line(seq));
  await Deno.writeTextFile(path, lines.map((l) => `${l}\n`).join(""));
  const places: { seq: number; offset: number }[] = [];
  const synced = [...readLogSync(path, { onProgress: (place) => places.push(place) })];
  assert.deepEqual(synced, await readEvents(path));
  assert.equal((synced[1]?.data as { text: string }).text, big);
  // From a place a read reached, and up to a seq: the same as the asynchronous read of it.
  const place = places[0]!;
  const options = { start: place, upTo: 4_000 };
  const from = [...readLogSync(path, options)];
  assert.equal(from[0]?.seq, place.seq + 1);
  assert.deepEqual(from, await readEvents(path, options));
  // Stopped early, then read again: each read starts afresh.
  for (const event of readLogSync(path)) if (event.seq === 3) break;
  assert.equal([...readLogSync(path, { upTo: 10 })].length, 10);
});

Deno.test("readLogSync refuses a damaged line with its line number, and a missing file naming it", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  await Deno.writeTextFile(path, `${line(1)}\n{broken\n${line(3)}\n`);
  const reader = readLogSync(path);
  assert.equal(reader.next().value?.seq, 1);
  assert.throws(
    () => reader.next(),
    (error) => error instanceof LogCorruptionError && error.line === 2,
  );
  assert.throws(
    () => readLogSync(join(dir.path, "missing.jsonl")).next(),
    (error) => error instanceof Deno.errors.NotFound && /missing\.jsonl/.test(String(error)),
  );
});
