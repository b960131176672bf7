import assert from "node:assert/strict";
import { join } from "node:path";
import { cutLog } from "./cut_log.ts";
import { openLogReader } from "./jsonl_reader.ts";
import { openJsonlStore } from "./jsonl_store.ts";
import type { Envelope } from "./event_types.ts";
import { fixedClock, prompt, tempDir } from "../testing/events.ts";

/** A follower of `path` run in the background, its events collected. */
function follow(path: string, fromSeq: number) {
  const stop = new AbortController();
  const seen: Envelope[] = [];
  const done = (async () => {
    for await (const event of openLogReader(path, { pollMs: 5 }).followLog(fromSeq, stop.signal)) {
      seen.push(event);
    }
  })();
  // A follower can throw while the test awaits something else (a truncate); mark the rejection
  // handled so the runner does not count it uncaught before assert.rejects looks at it.
  done.catch(() => {});
  const reach = async (count: number) => {
    for (let i = 0; i < 400 && seen.length < count; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(seen.length, count, `expected ${count} events, got ${seen.length}`);
  };
  return { stop, seen, done, reach };
}

/** Cut the log at `path` at byte `offset` as `rein log salvage` does (a new file renamed over). */
async function cutAt(path: string, offset: number): Promise<void> {
  using file = await Deno.open(path, { read: true, write: true });
  await file.lock(true);
  await cutLog(path, file, offset, "stamp");
}

Deno.test("a follower goes on in a log restored after deletion or cut back after what it read, and waits for a log that is not there yet", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const follower = follow(path, 1);
  await new Promise((resolve) => setTimeout(resolve, 30));
  const store = await openJsonlStore(path, { clock: fixedClock() });
  await store.append([prompt("one"), prompt("two")]);
  await follower.reach(2);
  await Deno.remove(path);
  await store.append([prompt("three")]);
  await follower.reach(3);
  await store.close();
  // Cut where the log ends: nothing the follower read is lost; a new writer continues the log.
  await cutAt(path, (await Deno.stat(path)).size);
  const next = await openJsonlStore(path, { clock: fixedClock() });
  await next.append([prompt("four")]);
  await follower.reach(4);
  await next.close();
  follower.stop.abort();
  await follower.done;
  assert.deepEqual(follower.seen.map((e) => e.seq), [1, 2, 3, 4]);
  assert.deepEqual(
    follower.seen.map((e) => e.data),
    ["one", "two", "three", "four"].map((text) => ({ text })),
  );
});

Deno.test("a follower throws when the log is cut back before an event it handed out, or truncated", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const store = await openJsonlStore(path, { clock: fixedClock() });
  await store.append([prompt("one"), prompt("two"), prompt("three")]);
  const size = (await Deno.stat(path)).size;
  await store.close();
  const cut = follow(path, 1);
  await cut.reach(3);
  const firstLine = (await Deno.readTextFile(path)).indexOf("\n") + 1;
  await cutAt(path, firstLine);
  await assert.rejects(cut.done, /does not hold event 3 as it was read/);
  const truncated = follow(path, 1);
  await truncated.reach(1);
  await Deno.truncate(path, 0);
  await assert.rejects(truncated.done, /shrank from \d+ to 0 bytes/);
  assert.ok(size > firstLine);
});
