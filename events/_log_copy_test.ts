import assert from "node:assert/strict";
import { join } from "node:path";
import { LogCopy } from "./_log_copy.ts";
import { tempDir } from "../testing/events.ts";

Deno.test("a log copy writes back exactly the bytes added, copied or kept, across blocks", async () => {
  await using dir = await tempDir();
  const copy = new LogCopy();
  const parts = [100, (1 << 20) - 150, 300, 3 << 20, 5000, 1, 0, 77, 8192, 12].map((size, i) =>
    new Uint8Array(size).fill(i + 1)
  );
  const reused = new Uint8Array(10).fill(9);
  for (const [i, part] of parts.entries()) copy.add(part, i % 2 === 1);
  copy.add(reused);
  reused.fill(0);

  const expected = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 10));
  let at = 0;
  for (const part of parts) {
    expected.set(part, at);
    at += part.length;
  }
  expected.fill(9, at);
  assert.equal(copy.size, expected.length);
  const target = join(dir.path, "copy");
  await Deno.writeTextFile(target, "something longer that is replaced".repeat(200_000));
  await copy.writeTo(target);
  assert.deepEqual(await Deno.readFile(target), expected);
});

Deno.test("an empty log copy writes an empty file", async () => {
  await using dir = await tempDir();
  const target = join(dir.path, "copy");
  await Deno.writeTextFile(target, "old");
  await new LogCopy().writeTo(target);
  assert.equal(await Deno.readTextFile(target), "");
});
