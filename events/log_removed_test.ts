import assert from "node:assert/strict";
import { join } from "node:path";
import { openJsonlStore } from "./jsonl_store.ts";
import { readEvents } from "./read_log.ts";
import { fixedClock, line, prompt, rejection, tempDir } from "../testing/events.ts";

async function seqsAndTexts(path: string): Promise<[number, unknown][]> {
  return (await readEvents(path)).map((e) => [e.seq, e.data]);
}

Deno.test("a log deleted under a running store is restored from the open file", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, ".rein", "events.jsonl");
  const notices: string[] = [];
  const store = await openJsonlStore(path, {
    clock: fixedClock(),
    onNotice: (m) => notices.push(m),
  });
  try {
    await store.append([prompt("a"), prompt("b")], { sync: true });
    await Deno.remove(join(dir.path, ".rein"), { recursive: true });

    const [third] = await store.append([prompt("c")], { sync: true });
    assert.equal(third?.seq, 3);
    assert.deepEqual(notices, [
      `The event log "${path}" was deleted while rein was running; restored it from the open file`,
    ]);
    assert.deepEqual(await seqsAndTexts(path), [
      [1, { text: "a" }],
      [2, { text: "b" }],
      [3, { text: "c" }],
    ]);
    assert.deepEqual([...Deno.readDirSync(join(dir.path, ".rein"))].map((e) => e.name), [
      "events.jsonl",
    ]);

    await store.append([prompt("d")]);
    assert.deepEqual(await store.catchUp(), []);
    assert.equal((await readEvents(path)).length, 4, "later appends reach the restored file");
    assert.equal(notices.length, 1);
  } finally {
    await store.close();
  }
});

Deno.test("catching up on a deleted log restores it too", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  await store.append([prompt("a")]);
  await Deno.remove(path);
  assert.deepEqual(await store.catchUp(), []);
  await store.close();
  assert.deepEqual(await seqsAndTexts(path), [[1, { text: "a" }]]);
});

Deno.test("two stores on a deleted log: one restores it, the other follows the restored file", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, ".rein", "events.jsonl");
  const notices: string[] = [];
  const seenByB: number[] = [];
  const a = await openJsonlStore(path, { clock: fixedClock(), onNotice: (m) => notices.push(m) });
  const b = await openJsonlStore(path, {
    clock: fixedClock(),
    onNotice: (m) => notices.push(`b: ${m}`),
    onEvent: (e) => seenByB.push(e.seq),
  });
  try {
    await a.append([prompt("a1")]);
    await b.append([prompt("b1")]);
    await Deno.remove(join(dir.path, ".rein"), { recursive: true });
    await a.append([prompt("a2")]);
    await b.append([prompt("b2")]);
    await a.append([prompt("a3")]);

    assert.deepEqual(seenByB, [1, 2, 3, 4]);
    assert.equal(notices.length, 2);
    assert.match(notices[0]!, /was deleted while rein was running; restored it/);
    assert.match(notices[1]!, /^b: .* by a file that holds all of its content .*continuing/);
    assert.deepEqual((await seqsAndTexts(path)).map(([, data]) => data), [
      { text: "a1" },
      { text: "b1" },
      { text: "a2" },
      { text: "b2" },
      { text: "a3" },
    ]);
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("a waiting store follows the log another writer restored and sees its append", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, ".rein", "events.jsonl");
  const notices: string[] = [];
  const open = (name: string) =>
    openJsonlStore(path, { clock: fixedClock(), onNotice: (m) => notices.push(`${name}: ${m}`) });
  const a = await open("a");
  const b = await open("b");
  try {
    await a.append([prompt("a1")]);
    await b.catchUp();
    // Its first poll finds nothing new; the next comes well after a has restored the log.
    const waiting = b.waitForAppend(1, AbortSignal.timeout(2000), 100);
    await Deno.remove(join(dir.path, ".rein"), { recursive: true });
    await a.append([prompt("a2")]);
    assert.deepEqual((await waiting).map((e) => [e.seq, e.data]), [[2, { text: "a2" }]]);
    assert.equal(notices.length, 2);
    assert.match(notices[0]!, /^a: .* was deleted while rein was running; restored it/);
    assert.match(notices[1]!, /^b: .* by a file that holds all of its content .*continuing/);
    assert.deepEqual(await seqsAndTexts(path), [[1, { text: "a1" }], [2, { text: "a2" }]]);
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("a waiting store stops when its log is replaced by another file", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  await store.append([prompt("a")]);
  const waiting = rejection(store.waitForAppend(1, AbortSignal.timeout(2000), 5));
  const other = join(dir.path, "other.jsonl");
  await Deno.writeTextFile(other, `${line(1, { text: "someone else" })}\n${line(2)}\n`);
  await Deno.rename(other, path);
  assert.match(String(await waiting), /was replaced by another file while rein was running/);
  await store.close();
  assert.deepEqual((await seqsAndTexts(path)).length, 2, "the other file is left as it was");
});

Deno.test("a log replaced by another file stops the store and rescues the open file", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  await store.append([prompt("a"), prompt("b")]);
  const history = await Deno.readFile(path);
  const taken = `${path}.rescued-2026-11-22T10-00-00.000Z`;
  await Deno.writeTextFile(taken, "an earlier rescue");
  const other = join(dir.path, "other.jsonl");
  await Deno.writeTextFile(other, `${line(1, { text: "someone else" })}\n`);
  await Deno.rename(other, path);

  const rescue = `${taken}-2`;
  const error = await rejection(store.append([prompt("c")]));
  assert.ok(error instanceof Error);
  assert.equal(
    error.message,
    `The event log "${path}" was replaced by another file while rein was running; stopping so ` +
      `nothing is overwritten. The events of this run are in "${rescue}"`,
  );
  assert.deepEqual(await Deno.readFile(rescue), history);
  assert.equal(await Deno.readTextFile(taken), "an earlier rescue");
  assert.deepEqual(await seqsAndTexts(path), [[1, { text: "someone else" }]]);

  await assert.rejects(store.append([prompt("d")]), { message: error.message });
  await assert.rejects(store.catchUp(), { message: error.message });
  await assert.rejects(store.sync(), { message: error.message });
  await store.close();
  assert.deepEqual(await seqsAndTexts(path), [[1, { text: "someone else" }]]);
  const rescues = [...Deno.readDirSync(dir.path)].filter((e) => e.name.includes(".rescued-"));
  assert.equal(rescues.length, 2, "one rescue copy, however often the store is called");
});

Deno.test("a log removed by git clean -fdx keeps every event", async () => {
  await using dir = await tempDir();
  const git = (...args: string[]) =>
    new Deno.Command("git", { args, cwd: dir.path, stdout: "null", stderr: "null" }).output();
  assert.equal((await git("init", "--quiet")).code, 0);
  const path = join(dir.path, ".rein", "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  try {
    await Deno.writeTextFile(join(dir.path, ".rein", ".gitignore"), "*\n");
    await store.append([prompt("before")], { sync: true });
    assert.equal((await git("clean", "-fdx")).code, 0);
    await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
    await store.append([prompt("after")], { sync: true });
  } finally {
    await store.close();
  }
  assert.deepEqual(await seqsAndTexts(path), [[1, { text: "before" }], [2, { text: "after" }]]);
});
