import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "./event_types.ts";
import { UPCASTERS } from "./upcast.ts";
import { line, tempDir } from "../testing/events.ts";
import { scanLog } from "./_scan_log.ts";

const FORMAT = { upcasters: UPCASTERS, knownTypes: new Set(["user.prompted"]) };

/** Every event `scanLog` visits in `path` from `start` (line `firstLine`), given `bytes`. */
async function scanned(path: string, start: number, firstLine: number, bytes?: number) {
  using file = await Deno.open(path, { read: true });
  const seen: Envelope[] = [];
  const scan = scanLog(
    file,
    path,
    { start, firstLine, ...(bytes === undefined ? {} : { bytes }) },
    FORMAT,
    (event) => seen.push(event),
  );
  let step = await scan.next();
  while (!step.done) step = await scan.next();
  return { seen, end: step.value };
}

Deno.test("a scan told it has a few bytes to read still reads every line there is: more than it was told, and lines longer than its smaller chunks", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const long = "x".repeat(200_000);
  const lines = [line(1), line(2, { text: long }), line(3), line(4, { text: long }), line(5)];
  await Deno.writeTextFile(path, lines.map((text) => `${text}\n`).join("") + '{"torn');
  const first = lines[0]!.length + 1;
  // Told of one short line's bytes: reads the rest too (the file grew after the caller looked).
  for (const bytes of [undefined, 10, first, 1 << 30]) {
    const { seen, end } = await scanned(path, first, 2, bytes);
    assert.deepEqual(seen.map((e) => e.seq), [2, 3, 4, 5], String(bytes));
    for (const at of [0, 2]) assert.equal((seen[at]?.data as { text: string }).text, long);
    assert.deepEqual(end, { end: (await Deno.stat(path)).size - 6, lastLine: 5, tail: 6 });
  }
});
