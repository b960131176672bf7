import assert from "node:assert/strict";
import { join } from "node:path";
import { createGlobTool } from "./glob.ts";
import { callContext, type TempDir, tempDir } from "../../testing/tool_helpers.ts";

/** Gives the files ascending modification times in the order listed. */
async function ageInOrder(dir: TempDir, files: string[]): Promise<void> {
  const base = Date.now() / 1000 - files.length * 60;
  for (const [i, file] of files.entries()) {
    await Deno.utime(join(dir.path, file), base + i * 60, base + i * 60);
  }
}

Deno.test("glob lists matching files, most recently modified first", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.ts": "", "b.ts": "", "c.ts": "", "d.md": "" });
  await ageInOrder(dir, ["b.ts", "c.ts", "a.ts", "d.md"]);
  const tool = createGlobTool({ workspace: dir.path });
  assert.deepEqual(await tool.run({ pattern: "*.ts" }, callContext()), {
    content: "a.ts\nc.ts\nb.ts",
    isError: false,
  });
});

Deno.test("glob matches * within a directory and ** at any depth", async () => {
  await using dir = await tempDir();
  await dir.write({ "top.ts": "", "src/a.ts": "", "src/deep/b.ts": "", "src/deep/c.js": "" });
  await ageInOrder(dir, ["top.ts", "src/a.ts", "src/deep/b.ts", "src/deep/c.js"]);
  const tool = createGlobTool({ workspace: dir.path });
  assert.equal((await tool.run({ pattern: "*.ts" }, callContext())).content, "top.ts");
  assert.equal(
    (await tool.run({ pattern: "**/*.ts" }, callContext())).content,
    "src/deep/b.ts\nsrc/a.ts\ntop.ts",
  );
  assert.equal(
    (await tool.run({ pattern: "src/**/*.{ts,js}" }, callContext())).content,
    "src/deep/c.js\nsrc/deep/b.ts\nsrc/a.ts",
  );
});

Deno.test("glob respects root and nested .gitignore files and skips .git and .rein", async () => {
  await using dir = await tempDir();
  await dir.write({
    ".gitignore": "*.log\nbuild/\n",
    "app.ts": "",
    "debug.log": "",
    "build/out.ts": "",
    "pkg/.gitignore": "generated.ts\n!keep.log\n",
    "pkg/main.ts": "",
    "pkg/generated.ts": "",
    "pkg/keep.log": "",
    "pkg/other.log": "",
    ".git/HEAD": "",
    ".rein/events.jsonl": "",
    ".github/ci.yml": "",
  });
  const tool = createGlobTool({ workspace: dir.path });
  const result = await tool.run({ pattern: "**/*" }, callContext());
  assert.deepEqual(result.content.split("\n").sort(), [
    ".github/ci.yml",
    ".gitignore",
    "app.ts",
    "pkg/.gitignore",
    "pkg/keep.log",
    "pkg/main.ts",
  ]);
});

Deno.test("glob searches below path and answers with workspace-relative paths", async () => {
  await using dir = await tempDir();
  await dir.write({ ".gitignore": "*.gen.ts\n", "a.ts": "", "lib/b.ts": "", "lib/c.gen.ts": "" });
  const tool = createGlobTool({ workspace: dir.path });
  assert.deepEqual(await tool.run({ pattern: "*.ts", path: "lib" }, callContext()), {
    content: "lib/b.ts",
    isError: false,
  });
});

Deno.test("glob caps the list at 200 files and says how many were left out", async () => {
  await using dir = await tempDir();
  const files: Record<string, string> = {};
  for (let i = 0; i < 250; i++) files[`f${String(i).padStart(3, "0")}.txt`] = "";
  await dir.write(files);
  const tool = createGlobTool({ workspace: dir.path });
  const lines = (await tool.run({ pattern: "*.txt" }, callContext())).content.split("\n");
  assert.equal(lines.length, 201);
  assert.equal(lines[200], "[… 50 more files not shown (250 matched); narrow the pattern or path]");
});

Deno.test("glob says when nothing matches", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.ts": "" });
  const tool = createGlobTool({ workspace: dir.path });
  assert.deepEqual(await tool.run({ pattern: "**/*.rs" }, callContext()), {
    content: 'No files match "**/*.rs"',
    isError: false,
  });
});

Deno.test("glob refuses paths and patterns that leave the workspace", async () => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  await outside.write({ "secret.ts": "" });
  await Deno.symlink(outside.path, join(dir.path, "linked"));
  const tool = createGlobTool({ workspace: dir.path });
  const byPath = await tool.run({ pattern: "*", path: ".." }, callContext());
  assert.deepEqual(byPath, {
    content: `Path ".." is outside the workspace ${dir.path}`,
    isError: true,
  });
  const byPattern = await tool.run({ pattern: "../*" }, callContext());
  assert.equal(byPattern.isError, true);
  assert.equal(
    (await tool.run({ pattern: "**/*.ts" }, callContext())).content,
    'No files match "**/*.ts"',
  );
});

Deno.test("glob says when path is missing or not a directory", async () => {
  await using dir = await tempDir();
  await dir.write({ "a.ts": "" });
  const tool = createGlobTool({ workspace: dir.path });
  assert.deepEqual(await tool.run({ pattern: "*", path: "nope" }, callContext()), {
    content: "Directory not found: nope",
    isError: true,
  });
  assert.equal((await tool.run({ pattern: "*", path: "a.ts" }, callContext())).isError, true);
});

Deno.test("glob does not list files a deny rule covers, by name, under a directory, or through a symlink", async () => {
  await using dir = await tempDir();
  await dir.write({ ".env": "", "secrets/deep/key.txt": "", "src/app.ts": "" });
  await Deno.symlink(".env", join(dir.path, "notes"));
  const asked: string[] = [];
  const tool = createGlobTool({
    workspace: dir.path,
    readDenied: (_state, _session, name) => {
      asked.push(name);
      return Promise.resolve((names) =>
        names.some((n) => n === ".env" || n.startsWith("secrets/"))
      );
    },
  });
  assert.deepEqual(await tool.run({ pattern: "**/*" }, callContext()), {
    content: "src/app.ts\n[3 files not listed: Read deny rules cover them]",
    isError: false,
  });
  assert.equal(
    (await tool.run({ pattern: "*.ts", path: "src" }, callContext())).content,
    "src/app.ts",
  );
  assert.deepEqual(asked, ["glob", "glob"]);
});
