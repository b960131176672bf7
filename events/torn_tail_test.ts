import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { encodeEvents } from "./_encode.ts";
import { openJsonlStore } from "./jsonl_store.ts";
import type { Envelope, NewEvent } from "./event_types.ts";
import { fixedClock, line, prompt, tempDir } from "../testing/events.ts";

const encoder = new TextEncoder();

/** The bytes of a valid log of `events`, and where its last record starts. */
function validLog(events: readonly NewEvent[]): { bytes: Uint8Array; lastStart: number } {
  const { text } = encodeEvents(events, 1, "2026-11-22T10:00:00.000Z", (l) => l);
  const bytes = encoder.encode(text);
  return { bytes, lastStart: bytes.lastIndexOf(10, bytes.length - 2) + 1 };
}

/**
 * Write `bytes` cut to `cut` bytes into a fresh directory, open it, and check the promises of
 * torn-tail repair: exactly the records before the cut, one notice, a backup holding the torn
 * content, the file truncated to the last newline, and the next append continuing the seq.
 */
async function assertCutRecovers(bytes: Uint8Array, lastStart: number, cut: number) {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const torn = bytes.subarray(0, cut);
  await Deno.writeFile(path, torn);
  const seen: Envelope[] = [];
  const notices: string[] = [];
  const store = await openJsonlStore(path, {
    clock: fixedClock(),
    onEvent: (e) => seen.push(e),
    onNotice: (m) => notices.push(m),
  });
  try {
    const committed = bytes.subarray(0, lastStart);
    const records = new TextDecoder().decode(committed).split("\n").filter((l) => l !== "");
    assert.deepEqual(seen, records.map((l) => JSON.parse(l)));
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, /Repaired torn tail of .*backed the file up to/);
    const backups = [...Deno.readDirSync(dir.path)].filter((e) => e.name.endsWith(".bak"));
    assert.equal(backups.length, 1);
    assert.match(backups[0]!.name, /^events\.jsonl\.torn-2026-11-22T10-00-00\.000Z\.bak$/);
    assert.deepEqual(await Deno.readFile(join(dir.path, backups[0]!.name)), torn);
    assert.deepEqual(await Deno.readFile(path), committed);
    const [next] = await store.append([prompt("after repair")]);
    assert.equal(next?.seq, records.length + 1);
  } finally {
    await store.close();
  }
}

Deno.test("a log cut at every byte inside its last record recovers its committed prefix", async () => {
  const { bytes, lastStart } = validLog([
    prompt("first"),
    prompt("second"),
    prompt('third: ünïcödé 🦕 "quoted"\n'),
  ]);
  for (let cut = lastStart + 1; cut < bytes.length; cut++) {
    await assertCutRecovers(bytes, lastStart, cut);
  }
});

Deno.test("any valid log cut inside its last record recovers its committed prefix", async () => {
  const text = fc.string({ unit: "binary", maxLength: 40 });
  const event = fc.oneof(
    text.map((t): NewEvent => prompt(t)),
    fc.record({ callId: text, content: text, isError: fc.boolean(), durationMs: fc.nat() })
      .map((d): NewEvent => ({
        type: "tool.completed",
        session: "s1",
        agent: "mate",
        data: { ...d, name: "bash" },
      })),
  );
  const log = fc.array(event, { minLength: 1, maxLength: 6 }).map(validLog)
    .chain((l) =>
      fc.tuple(fc.constant(l), fc.integer({ min: l.lastStart + 1, max: l.bytes.length - 1 }))
    );
  await fc.assert(
    fc.asyncProperty(log, async ([{ bytes, lastStart }, cut]) => {
      await assertCutRecovers(bytes, lastStart, cut);
    }),
    { numRuns: 60 },
  );
});

Deno.test("a log cut exactly after a newline opens without repair", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const { bytes, lastStart } = validLog([prompt("a"), prompt("b")]);
  await Deno.writeFile(path, bytes.subarray(0, lastStart));
  const notices: string[] = [];
  const store = await openJsonlStore(path, {
    clock: fixedClock(),
    onNotice: (m) => notices.push(m),
  });
  assert.equal(store.lastSeq, 1);
  await store.close();
  assert.deepEqual(notices, []);
});

Deno.test("a torn tail left by a crashed writer is repaired at the next append", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const notices: string[] = [];
  const store = await openJsonlStore(path, {
    clock: fixedClock(),
    onNotice: (m) => notices.push(m),
  });
  await store.append([prompt("a")]);
  await Deno.writeTextFile(path, line(2).slice(0, 30), { append: true });
  const [next] = await store.append([prompt("b")]);
  assert.equal(next?.seq, 2);
  assert.equal(notices.length, 1);
  const lines = (await Deno.readTextFile(path)).split("\n");
  assert.deepEqual(lines.map((l) => l === "" ? null : JSON.parse(l).data.text), ["a", "b", null]);
  await store.close();
});

Deno.test("repeated repairs at the same clock reading keep every backup", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  for (let i = 0; i < 3; i++) {
    await Deno.writeTextFile(path, '{"torn', { append: true });
    await (await openJsonlStore(path, { clock: fixedClock() })).close();
  }
  const names = [...Deno.readDirSync(dir.path)].map((e) => e.name).sort();
  assert.deepEqual(names, [
    "events.jsonl",
    "events.jsonl.torn-2026-11-22T10-00-00.000Z-2.bak",
    "events.jsonl.torn-2026-11-22T10-00-00.000Z-3.bak",
    "events.jsonl.torn-2026-11-22T10-00-00.000Z.bak",
  ]);
});
