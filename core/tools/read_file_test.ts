import assert from "node:assert/strict";
import { join } from "node:path";
import { createReadFileTool } from "./read_file.ts";
import { callContext, tempDir } from "../../testing/tool_helpers.ts";

function numbered(from: number, to: number): string {
  const lines: string[] = [];
  for (let n = from; n <= to; n++) lines.push(`${String(n).padStart(6)}\tline ${n}`);
  return lines.join("\n");
}

function fileOfLines(count: number): string {
  return Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join("");
}

Deno.test("read_file numbers lines like cat -n", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.txt": "alpha\n\tbeta\ngamma" });
  const tool = createReadFileTool({ workspace: dir.path });
  assert.deepEqual(await tool.run({ path: "a.txt" }, callContext()), {
    content: "     1\talpha\n     2\t\tbeta\n     3\tgamma",
    isError: false,
  });
});

Deno.test("read_file reads the window given by offset and limit", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.txt": fileOfLines(10) });
  const tool = createReadFileTool({ workspace: dir.path });
  const result = await tool.run({ path: "a.txt", offset: 4, limit: 3 }, callContext());
  assert.equal(
    result.content,
    `${numbered(4, 6)}\n[… 4 more lines; use offset 7 to continue]`,
  );
});

Deno.test("read_file reads 2000 lines by default and says how to continue", async () => {
  await using dir = await tempDir();
  await dir.write({ "big.txt": fileOfLines(2340) });
  const tool = createReadFileTool({ workspace: dir.path });
  const result = await tool.run({ path: "big.txt" }, callContext());
  const lines = result.content.split("\n");
  assert.equal(lines.length, 2001);
  assert.equal(lines[1999], `${String(2000).padStart(6)}\tline 2000`);
  assert.equal(lines[2000], "[… 340 more lines; use offset 2001 to continue]");
});

Deno.test("read_file reads to the end from an offset without a note", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.txt": fileOfLines(5) });
  const tool = createReadFileTool({ workspace: dir.path });
  const result = await tool.run({ path: "a.txt", offset: 4 }, callContext());
  assert.equal(result.content, numbered(4, 5));
});

Deno.test("read_file says when the offset is past the end", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.txt": fileOfLines(3) });
  const tool = createReadFileTool({ workspace: dir.path });
  assert.deepEqual(await tool.run({ path: "a.txt", offset: 9 }, callContext()), {
    content: 'Offset 9 is past the end of "a.txt", which has 3 lines',
    isError: true,
  });
});

Deno.test("read_file cuts very long lines with a marker", async () => {
  await using dir = await tempDir();
  await dir.write({ "wide.txt": `${"x".repeat(5000)}\nshort\n` });
  const tool = createReadFileTool({ workspace: dir.path });
  const result = await tool.run({ path: "wide.txt" }, callContext());
  assert.equal(
    result.content,
    `     1\t${"x".repeat(2000)}… [line cut: 5,000 characters]\n     2\tshort`,
  );
});

Deno.test("read_file shows CRLF files without carriage returns", async () => {
  await using dir = await tempDir();
  await dir.write({ "dos.txt": "one\r\ntwo\r\n" });
  const tool = createReadFileTool({ workspace: dir.path });
  assert.equal(
    (await tool.run({ path: "dos.txt" }, callContext())).content,
    "     1\tone\n     2\ttwo",
  );
});

Deno.test("read_file refuses a file with a NUL byte as binary", async () => {
  await using dir = await tempDir();
  await dir.write({ "image.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) });
  const tool = createReadFileTool({ workspace: dir.path });
  assert.deepEqual(await tool.run({ path: "image.png" }, callContext()), {
    content: 'Cannot read "image.png": it is a binary file, not text',
    isError: true,
  });
});

Deno.test("read_file refuses invalid UTF-8", async () => {
  await using dir = await tempDir();
  await dir.write({ "latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
  const tool = createReadFileTool({ workspace: dir.path });
  const result = await tool.run({ path: "latin1.txt" }, callContext());
  assert.equal(result.isError, true);
  assert.match(result.content, /^Cannot read "latin1\.txt": it is not valid UTF-8 text/);
});

Deno.test("read_file keeps multi-byte characters split across read chunks", async () => {
  await using dir = await tempDir();
  const text = `${"é".repeat(40_000)}\n`;
  await dir.write({ "accents.txt": text });
  const tool = createReadFileTool({ workspace: dir.path });
  const result = await tool.run({ path: "accents.txt" }, callContext());
  assert.equal(result.isError, false);
  assert.ok(
    result.content.startsWith(`     1\t${"é".repeat(2000)}… [line cut: 40,000 characters]`),
  );
});

Deno.test("read_file suggests similar names when the file is missing", async () => {
  await using dir = await tempDir();
  await dir.write({ "src/config.ts": "", "src/other.ts": "" });
  const tool = createReadFileTool({ workspace: dir.path });
  assert.deepEqual(await tool.run({ path: "src/confg.ts" }, callContext()), {
    content: "File not found: src/confg.ts. Did you mean src/config.ts?",
    isError: true,
  });
  assert.deepEqual(await tool.run({ path: "src/zzz.ts" }, callContext()), {
    content: "File not found: src/zzz.ts",
    isError: true,
  });
  assert.deepEqual(await tool.run({ path: "lib/a.ts" }, callContext()), {
    content: 'File not found: lib/a.ts (directory "lib" does not exist)',
    isError: true,
  });
});

Deno.test("read_file says a directory is a directory and points to glob", async () => {
  await using dir = await tempDir();
  await dir.write({ "src/a.ts": "" });
  const tool = createReadFileTool({ workspace: dir.path });
  assert.deepEqual(await tool.run({ path: "src" }, callContext()), {
    content: '"src" is a directory, not a file; use glob to list the files in it',
    isError: true,
  });
});

Deno.test("read_file says when a file is empty", async () => {
  await using dir = await tempDir();
  await dir.write({ "empty.txt": "" });
  const tool = createReadFileTool({ workspace: dir.path });
  assert.deepEqual(await tool.run({ path: "empty.txt" }, callContext()), {
    content: 'File "empty.txt" is empty',
    isError: false,
  });
});

Deno.test("read_file refuses paths outside the workspace", async () => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  await outside.write({ "secret.txt": "secret" });
  await Deno.symlink(join(outside.path, "secret.txt"), join(dir.path, "peek.txt"));
  const tool = createReadFileTool({ workspace: dir.path });
  for (const path of ["../x", join(outside.path, "secret.txt"), "peek.txt"]) {
    const result = await tool.run({ path }, callContext());
    assert.equal(result.isError, true);
    assert.ok(result.content.startsWith(`Path "${path}" is outside the workspace`), result.content);
  }
});

Deno.test("read_file is read-only and summarized by its path", () => {
  const tool = createReadFileTool({ workspace: "/tmp" });
  assert.equal(tool.readOnly, true);
  assert.equal(tool.summarize({ path: "src/a.ts" }), "src/a.ts");
});

Deno.test({
  name: "read_file refuses a named pipe without waiting for a writer",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using dir = await tempDir();
    const fifo = join(dir.path, "x");
    assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
    await Deno.symlink("x", join(dir.path, "link"));
    const tool = createReadFileTool({ workspace: dir.path });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<"stuck">((resolve) =>
      timer = setTimeout(() => resolve("stuck"), 2000)
    );
    try {
      for (const path of ["x", "link"]) {
        const result = await Promise.race([tool.run({ path }, callContext()), stuck]);
        if (result === "stuck") {
          using _writer = await Deno.open(fifo, { write: true }); // lets the blocked open finish
          assert.fail(`read_file "${path}" blocked on the named pipe`);
        }
        assert.deepEqual(result, {
          content: '"x" is not a regular file (a named pipe); read_file reads files only',
          isError: true,
        });
      }
    } finally {
      clearTimeout(timer);
    }
  },
});
