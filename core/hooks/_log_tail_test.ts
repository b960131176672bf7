import assert from "node:assert/strict";
import { openJsonlStore } from "../../events/jsonl_store.ts";
import type { NewEvent } from "../../events/event_types.ts";
import { readLogTail, TAIL_LIMIT } from "./_log_tail.ts";

const prompted = (session: string, text: string): NewEvent => ({
  type: "user.prompted",
  session,
  agent: "lead",
  data: { text },
});

Deno.test("readLogTail reads the session's events after a place, and leaves a long tail to a streaming read", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/events.jsonl`;
  const store = await openJsonlStore(path, { clock: () => new Date(0) });
  try {
    await store.append([prompted("s1", "one")]);
    const at = store.position;
    await store.append([prompted("s2", "other"), prompted("s1", "two")]);
    // A line still being written is not read.
    await Deno.writeTextFile(path, '{"v":2,"seq":4', { append: true });
    const tail = await readLogTail(path, at, "s1");
    assert.deepEqual(tail?.events.map((e) => [e.seq, e.data]), [[3, { text: "two" }]]);
    const size = (await Deno.stat(path)).size;
    assert.deepEqual(tail?.end, { seq: 3, offset: size - '{"v":2,"seq":4'.length });
    assert.deepEqual((await readLogTail(path, tail!.end, "s1"))?.events, []);
    await Deno.writeTextFile(path, "x".repeat(TAIL_LIMIT) + "\n", { append: true });
    assert.equal(await readLogTail(path, tail!.end, "s1"), undefined);
    await Deno.truncate(path, 10);
    await assert.rejects(readLogTail(path, tail!.end, "s1"), /it is 10 bytes now/);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
