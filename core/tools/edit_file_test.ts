import assert from "node:assert/strict";
import { join } from "node:path";
import { createEditFileTool } from "./edit_file.ts";
import { callContext, tempDir } from "../../testing/tool_helpers.ts";

const source = `function greet(name) {
  return "Hello, " + name;
}

function part(name) {
  return "Bye, " + name;
}
`;

Deno.test("edit_file replaces text that occurs exactly once", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.js": source });
  const tool = createEditFileTool({ workspace: dir.path });
  const result = await tool.run(
    { path: "a.js", old_string: '"Bye, "', new_string: '"Goodbye, $&"' },
    callContext(),
  );
  assert.deepEqual(result, { content: "Replaced 1 occurrence in a.js at line 6", isError: false });
  assert.equal(
    await Deno.readTextFile(join(dir.path, "a.js")),
    source.replace('"Bye, "', () => '"Goodbye, $&"'),
  );
});

Deno.test("edit_file refuses several matches and names their lines", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.js": source });
  const tool = createEditFileTool({ workspace: dir.path });
  const result = await tool.run(
    { path: "a.js", old_string: "name", new_string: "who" },
    callContext(),
  );
  assert.deepEqual(result, {
    content: "Found 4 matches of old_string in a.js (lines 1, 2, 5, 6); include more surrounding " +
      "lines to make it unique, or set replace_all to replace every one",
    isError: true,
  });
  assert.equal(await Deno.readTextFile(join(dir.path, "a.js")), source);
});

Deno.test("edit_file replaces every occurrence with replace_all", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.js": source });
  const tool = createEditFileTool({ workspace: dir.path });
  const result = await tool.run(
    { path: "a.js", old_string: "name", new_string: "who", replace_all: true },
    callContext(),
  );
  assert.deepEqual(result, {
    content: "Replaced 4 occurrences in a.js; the first is at line 1",
    isError: false,
  });
  assert.equal(await Deno.readTextFile(join(dir.path, "a.js")), source.replaceAll("name", "who"));
});

Deno.test("edit_file says when nothing matches", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.js": source });
  const tool = createEditFileTool({ workspace: dir.path });
  const result = await tool.run(
    { path: "a.js", old_string: "farewell", new_string: "x" },
    callContext(),
  );
  assert.deepEqual(result, {
    content: "No match for old_string in a.js; old_string must match the file's current text " +
      "exactly (read the file again to check)",
    isError: true,
  });
});

Deno.test("edit_file hints at a match that differs only in whitespace", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.js": source });
  const tool = createEditFileTool({ workspace: dir.path });
  const result = await tool.run(
    { path: "a.js", old_string: 'function part(name) {\n    return "Bye, "', new_string: "x" },
    callContext(),
  );
  assert.equal(result.isError, true);
  assert.match(
    result.content,
    /^No match for old_string in a\.js; text that differs only in whitespace exists at line 5\./,
  );
});

Deno.test("edit_file points out read_file line-number prefixes in old_string", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.js": source });
  const tool = createEditFileTool({ workspace: dir.path });
  const result = await tool.run(
    { path: "a.js", old_string: '     2\t  return "Hello, " + name;', new_string: "x" },
    callContext(),
  );
  assert.match(result.content, /line-number prefixes/);
});

Deno.test("edit_file edits CRLF files when old_string uses LF line breaks", async () => {
  await using dir = await tempDir();
  await dir.write({ "dos.txt": "one\r\ntwo\r\nthree\r\n" });
  const tool = createEditFileTool({ workspace: dir.path });
  const result = await tool.run(
    { path: "dos.txt", old_string: "one\ntwo", new_string: "1\n2" },
    callContext(),
  );
  assert.deepEqual(result, {
    content: "Replaced 1 occurrence in dos.txt at line 1",
    isError: false,
  });
  assert.equal(await Deno.readTextFile(join(dir.path, "dos.txt")), "1\r\n2\r\nthree\r\n");
});

Deno.test("edit_file refuses identical old_string and new_string", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.js": source });
  const tool = createEditFileTool({ workspace: dir.path });
  assert.deepEqual(
    await tool.run({ path: "a.js", old_string: "greet", new_string: "greet" }, callContext()),
    {
      content: "old_string and new_string are identical; there is nothing to change",
      isError: true,
    },
  );
});

Deno.test("edit_file refuses an empty old_string", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.js": source });
  const tool = createEditFileTool({ workspace: dir.path });
  const result = await tool.run({ path: "a.js", old_string: "", new_string: "x" }, callContext());
  assert.equal(result.isError, true);
  assert.match(result.content, /^old_string is empty/);
});

Deno.test("edit_file says a missing file is missing and suggests a similar one", async () => {
  await using dir = await tempDir();
  await dir.write({ "main.ts": "" });
  const tool = createEditFileTool({ workspace: dir.path });
  assert.deepEqual(
    await tool.run({ path: "mian.ts", old_string: "a", new_string: "b" }, callContext()),
    { content: "File not found: mian.ts. Did you mean main.ts?", isError: true },
  );
});

Deno.test("edit_file refuses binary files and paths outside the workspace", async () => {
  await using dir = await tempDir();
  await dir.write({ "blob.bin": new Uint8Array([1, 0, 2]) });
  const tool = createEditFileTool({ workspace: dir.path });
  assert.deepEqual(
    await tool.run({ path: "blob.bin", old_string: "a", new_string: "b" }, callContext()),
    {
      content: 'Cannot read "blob.bin": it is a binary file, not text',
      isError: true,
    },
  );
  const outside = await tool.run(
    { path: "../a.js", old_string: "a", new_string: "b" },
    callContext(),
  );
  assert.equal(outside.content, `Path "../a.js" is outside the workspace ${dir.path}`);
});

Deno.test("edit_file refuses rein's event log and leaves it unchanged", async () => {
  await using dir = await tempDir();
  await dir.write({ ".rein/events.jsonl": '{"seq":1}\n' });
  const tool = createEditFileTool({
    workspace: dir.path,
    protectedPaths: [join(dir.path, ".rein")],
  });
  const input = { path: ".rein/events.jsonl", old_string: "1", new_string: "2" };
  assert.deepEqual(await tool.run(input, callContext()), {
    content: `Refusing to edit ".rein/events.jsonl": it is in ".rein", rein's event log ` +
      "directory; rein records its own history there",
    isError: true,
  });
  assert.equal(await Deno.readTextFile(join(dir.path, ".rein/events.jsonl")), '{"seq":1}\n');
});

Deno.test({
  name: "edit_file refuses a named pipe without blocking",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using dir = await tempDir();
    const fifo = join(dir.path, "p");
    assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
    const tool = createEditFileTool({ workspace: dir.path });
    assert.deepEqual(
      await tool.run({ path: "p", old_string: "a", new_string: "b" }, callContext()),
      {
        content: '"p" is not a regular file (a named pipe); edit_file edits files only',
        isError: true,
      },
    );
  },
});
