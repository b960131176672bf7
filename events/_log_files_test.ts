import assert from "node:assert/strict";
import { join } from "node:path";
import {
  copyOpenFile,
  createUniqueFile,
  fileIdentity,
  pathMayHaveChanged,
  placeUnlessTaken,
  startsWithContentOf,
} from "./_log_files.ts";
import { tempDir } from "../testing/events.ts";

Deno.test("placing a file never replaces one that is already at the name", async () => {
  await using dir = await tempDir();
  const source = join(dir.path, "source");
  const target = join(dir.path, "target");
  await Deno.writeTextFile(source, "restored");
  await Deno.writeTextFile(target, "someone else's");
  assert.equal(await placeUnlessTaken(source, target), false);
  assert.equal(await Deno.readTextFile(target), "someone else's");
  await Deno.remove(target);
  assert.equal(await placeUnlessTaken(source, target), true);
  assert.equal(await Deno.readTextFile(target), "restored");
});

Deno.test("an unlinked open file is copied whole and recognized as the start of another", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "log");
  await Deno.writeTextFile(path, "one\ntwo\n");
  using file = await Deno.open(path, { read: true, append: true });
  await Deno.remove(path);
  const copy = await createUniqueFile(join(dir.path, "copy"));
  assert.equal(await createUniqueFile(join(dir.path, "copy")), `${copy}-2`);
  await copyOpenFile(file, copy);
  assert.equal(await Deno.readTextFile(copy), "one\ntwo\n");
  assert.equal(await startsWithContentOf(copy, file), true);
  await Deno.writeTextFile(copy, "three\n", { append: true });
  assert.equal(await startsWithContentOf(copy, file), true);
  await Deno.writeTextFile(copy, "one\ntwo");
  assert.equal(await startsWithContentOf(copy, file), false, "shorter");
  await Deno.writeTextFile(copy, "one\ntwx\nthree\n");
  assert.equal(await startsWithContentOf(copy, file), false, "different");
  assert.equal(await startsWithContentOf(dir.path, file), false, "a directory");
  assert.equal(await startsWithContentOf(path, file), false, "missing");
});

Deno.test("a path may have changed when its size or file differs or it is gone", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "log");
  await Deno.writeTextFile(path, "one\n");
  const identity = fileIdentity(await Deno.stat(path));
  assert.equal(pathMayHaveChanged(path, 4, identity), false);
  assert.equal(pathMayHaveChanged(path, 3, identity), true, "another size");
  await Deno.writeTextFile(`${path}.new`, "two\n");
  await Deno.rename(`${path}.new`, path);
  assert.equal(pathMayHaveChanged(path, 4, undefined), false, "identity not compared");
  assert.equal(pathMayHaveChanged(path, 4, identity), identity !== undefined, "another file");
  await Deno.remove(path);
  assert.equal(pathMayHaveChanged(path, 4, identity), true, "gone");
});
