import assert from "node:assert/strict";
import { join } from "node:path";
import { cutLog } from "./cut_log.ts";
import { line, tempDir } from "../testing/events.ts";

Deno.test("cutLog keeps the prefix as the log and loses no byte: backup and set-aside beside it", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const kept = `${line(1)}\n${line(2)}\n`;
  const rest = `garbage\n${line(3)}\n`;
  await Deno.writeTextFile(path, kept + rest);
  await Deno.chmod(path, 0o600);
  await Deno.writeTextFile(`${path}.backup-T`, "an older backup");
  const before = (await Deno.stat(path)).ino;
  using file = await Deno.open(path, { read: true, write: true });
  const cut = await cutLog(path, file, kept.length, "T");
  assert.equal(await Deno.readTextFile(path), kept);
  assert.notEqual((await Deno.stat(path)).ino, before, "replaced by a rename, not rewritten");
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  assert.equal(cut.backup, `${path}.backup-T-2`);
  assert.equal(await Deno.readTextFile(`${path}.backup-T`), "an older backup");
  assert.equal(await Deno.readTextFile(cut.backup), kept + rest);
  assert.equal(cut.setAside, `${path}.set-aside-T.jsonl`);
  assert.equal(await Deno.readTextFile(cut.setAside), rest);
  assert.deepEqual([cut.keptBytes, cut.setAsideBytes], [kept.length, rest.length]);
  const names = [...Deno.readDirSync(dir.path)].map((e) => e.name).sort();
  assert.deepEqual(names, [
    "events.jsonl",
    "events.jsonl.backup-T",
    "events.jsonl.backup-T-2",
    "events.jsonl.set-aside-T.jsonl",
  ]);
});

Deno.test("cutLog refuses a cut past the end and leaves the log alone", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  await Deno.writeTextFile(path, `${line(1)}\n`);
  using file = await Deno.open(path, { read: true, write: true });
  await assert.rejects(cutLog(path, file, 10_000, "T"), RangeError);
  assert.equal(await Deno.readTextFile(path), `${line(1)}\n`);
  assert.equal([...Deno.readDirSync(dir.path)].length, 1);
});
