import assert from "node:assert/strict";
import { join } from "node:path";
import { saveNote } from "./save_note.ts";

Deno.test("a # note is appended as a line of MEMORY.md, created with its directory", async () => {
  const workspace = await Deno.makeTempDir();
  try {
    const path = join(workspace, ".rein", "memory", "MEMORY.md");
    assert.deepEqual(await saveNote("# use pnpm, not npm", { workspace }), {
      path,
      text: "use pnpm, not npm",
    });
    await Deno.writeTextFile(path, "- kept", { append: true });
    assert.deepEqual(await saveNote("two\nlines ", { workspace }), { path, text: "two lines" });
    assert.equal(await Deno.readTextFile(path), "- use pnpm, not npm\n- kept\n- two lines\n");
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("an empty note is refused, and a configured directory is used", async () => {
  const workspace = await Deno.makeTempDir();
  try {
    await assert.rejects(() => saveNote("#  ", { workspace }), /Cannot save an empty note/);
    const saved = await saveNote("x", { workspace }, { directory: "notes" });
    assert.equal(saved.path, join(workspace, "notes", "MEMORY.md"));
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});
