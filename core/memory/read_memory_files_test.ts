import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import type { RecordedFile } from "../../events/event_types.ts";
import { readMemoryFiles } from "./read_memory_files.ts";

/** A temp tree: `home/` and `home/repo/` (a repository) with `home/repo/app` as the workspace. */
async function tree(files: Record<string, string>) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein_memory_" }));
  const home = join(root, "home");
  const workspace = join(home, "repo", "app");
  await Deno.mkdir(join(home, "repo", ".git"), { recursive: true });
  await Deno.mkdir(workspace, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  const notices: string[] = [];
  return {
    root,
    workspace,
    notices,
    place: { workspace, home, onNotice: (m: string) => notices.push(m) },
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

function paths(root: string, files: RecordedFile[]): string[] {
  return files.map((f) => `${f.source} ${f.path.slice(root.length + 1)}`);
}

Deno.test("every instruction file is recorded in prompt order, each import after its importer", async () => {
  await using t = await tree({
    "home/.claude/CLAUDE.md": "user rules\n@~/.claude/extra.md\n",
    "home/.claude/extra.md": "user extra\n",
    "home/repo/CLAUDE.md": "root rules\n@docs/style.md\n",
    "home/repo/docs/style.md": "style\n",
    "home/repo/CLAUDE.local.md": "mine\n",
    "home/repo/app/AGENTS.md": "agents\n",
    "home/repo/app/.claude/CLAUDE.md": "app claude\n",
    "home/CLAUDE.md": "outside the repository: not read\n",
  });
  const files = await readMemoryFiles(t.place);
  assert.deepEqual(paths(t.root, files), [
    "memory home/.claude/CLAUDE.md",
    "memory home/.claude/extra.md",
    "memory home/repo/CLAUDE.md",
    "memory home/repo/docs/style.md",
    "memory home/repo/app/.claude/CLAUDE.md",
    "memory home/repo/app/AGENTS.md",
    "memory home/repo/CLAUDE.local.md",
    "memory.index home/repo/app/.rein/memory/MEMORY.md",
  ]);
  assert.equal(files[3]?.text, "style\n");
  assert.equal(files.at(-1)?.text, "");
  assert.deepEqual(t.notices, []);
});

Deno.test("imports are followed 5 deep and no deeper, with a notice naming file and line", async () => {
  const chain: Record<string, string> = { "home/repo/app/CLAUDE.md": "top\n@d1.md\n" };
  for (let i = 1; i <= 6; i++) chain[`home/repo/app/d${i}.md`] = `level ${i}\n\n@d${i + 1}.md\n`;
  await using t = await tree(chain);
  const files = await readMemoryFiles(t.place);
  assert.deepEqual(
    files.filter((f) => f.source === "memory").map((f) => f.text.split("\n")[0]),
    ["top", "level 1", "level 2", "level 3", "level 4", "level 5"],
  );
  assert.deepEqual(t.notices, [
    `Not following "@d6.md" at line 3 of "${
      join(t.workspace, "d5.md")
    }": imports go at most 5 deep`,
  ]);
});

Deno.test("a cycle and a missing import are reported and the rest still loads", async () => {
  await using t = await tree({
    "home/repo/app/CLAUDE.md": "top\n@a.md\n@missing.md\n",
    "home/repo/app/a.md": "a\n@b.md\n",
    "home/repo/app/b.md": "b\n\n@a.md\n@CLAUDE.md\n`@ignored.md`\n",
  });
  const files = await readMemoryFiles(t.place);
  assert.deepEqual(files.map((f) => f.path.slice(t.workspace.length + 1)), [
    "CLAUDE.md",
    "a.md",
    "b.md",
    ".rein/memory/MEMORY.md",
  ]);
  const at = (file: string) => join(t.workspace, file);
  assert.deepEqual(t.notices, [
    `Import cycle: "@a.md" at line 3 of "${at("b.md")}" leads back to "${
      at("a.md")
    }", which imports it; not followed`,
    `Import cycle: "@CLAUDE.md" at line 4 of "${at("b.md")}" leads back to "${
      at("CLAUDE.md")
    }", which imports it; not followed`,
    `Cannot import "@missing.md" at line 3 of "${at("CLAUDE.md")}": "${
      at("missing.md")
    }" does not exist`,
  ]);
});

Deno.test("a file reached twice (imported, or a symlink) is recorded once, without a notice", async () => {
  await using t = await tree({
    "home/repo/app/AGENTS.md": "shared rules\n",
    "home/repo/app/CLAUDE.md": "@AGENTS.md\n",
  });
  await Deno.symlink(join(t.workspace, "AGENTS.md"), join(t.workspace, "CLAUDE.local.md"));
  const files = await readMemoryFiles(t.place);
  assert.deepEqual(paths(t.root, files), [
    "memory home/repo/app/CLAUDE.md",
    "memory home/repo/app/AGENTS.md",
    "memory.index home/repo/app/.rein/memory/MEMORY.md",
  ]);
  assert.deepEqual(t.notices, []);
});

Deno.test("a file over the cap is cut at a line end, and the total cap skips later files", async () => {
  const line = "x".repeat(99) + "\n";
  await using t = await tree({
    "home/repo/CLAUDE.md": line.repeat(30),
    "home/repo/app/CLAUDE.md": line.repeat(8),
    "home/repo/app/CLAUDE.local.md": "late\n",
  });
  const files = await readMemoryFiles(t.place, { maxFileBytes: 2_000, maxTotalBytes: 2_500 });
  assert.deepEqual(files.map((f) => f.text.length), [2_000, 500, 0]);
  const [first, second, third] = t.notices;
  assert.match(first ?? "", /^Instructions ".*\/repo\/CLAUDE.md" are 3 KB, over the 2 KB cap/);
  assert.match(
    second ?? "",
    /^Only the first 500 bytes of instructions ".*\/app\/CLAUDE.md" are loaded/,
  );
  assert.match(third ?? "", /^Skipped instructions ".*CLAUDE.local.md" \(5 bytes\): .* 2.5 KB$/);
});

Deno.test("the memory index is recorded from the memory directory, cut to the cap", async () => {
  await using t = await tree({
    "home/repo/app/.rein/memory/MEMORY.md": "- [Build](build.md): how to build\n",
    "home/repo/app/notes/MEMORY.md": "a\n".repeat(600),
  });
  const [index] = await readMemoryFiles(t.place);
  assert.deepEqual(index, {
    source: "memory.index",
    path: join(t.workspace, ".rein", "memory", "MEMORY.md"),
    text: "- [Build](build.md): how to build\n",
  });
  const [other] = await readMemoryFiles(t.place, { directory: "notes", maxFileBytes: 1_000 });
  assert.equal(other?.text.length, 1_000);
  assert.match(t.notices[0] ?? "", /^Memory ".*notes\/MEMORY.md" is 1.2 KB, over the 1 KB cap/);
});

Deno.test("a file that cannot be read is reported, not fatal", async () => {
  await using t = await tree({
    "home/repo/app/CLAUDE.md": "@bin.md\n@dir.md\n",
    "home/repo/app/bin.md": "a\0b",
  });
  await Deno.mkdir(join(t.workspace, "dir.md"));
  const files = await readMemoryFiles(t.place);
  assert.equal(files.length, 2);
  assert.equal(t.notices.length, 2);
  assert.match(t.notices[0] ?? "", /^Cannot read instructions ".*bin.md": it is not a text file$/);
  assert.match(
    t.notices[1] ?? "",
    /^Not importing "@dir.md" at line 2 of ".*CLAUDE.md": it is a directory, not a regular file$/,
  );
});

Deno.test(".claude/rules: the person's follow ~/.claude/CLAUDE.md, the project's come before CLAUDE.local.md; a rule with paths is recorded apart", async () => {
  await using t = await tree({
    "home/.claude/CLAUDE.md": "user\n",
    "home/.claude/rules/mine.md": "my rule\n",
    "home/repo/CLAUDE.md": "root\n",
    "home/repo/CLAUDE.local.md": "local\n",
    "home/repo/.claude/rules/style.md": "---\ndescription: style\n---\nstyle rule\n",
    "home/repo/.claude/rules/lang/ts.md": '---\npaths: "src/**/*.ts"\n---\nts rule\n',
    "home/repo/.claude/rules/notes.txt": "not a rule\n",
    "home/repo/app/.claude/rules/app.md": "app rule\n@../../../README.md\n",
    "home/repo/README.md": "readme\n",
  });
  const files = await readMemoryFiles(t.place);
  assert.deepEqual(paths(t.root, files), [
    "memory home/.claude/CLAUDE.md",
    "memory home/.claude/rules/mine.md",
    "memory home/repo/CLAUDE.md",
    "memory home/repo/.claude/rules/style.md",
    "memory.rule home/repo/.claude/rules/lang/ts.md",
    "memory home/repo/app/.claude/rules/app.md",
    "memory home/repo/README.md",
    "memory home/repo/CLAUDE.local.md",
    "memory.index home/repo/app/.rein/memory/MEMORY.md",
  ]);
  assert.deepEqual(t.notices, []);
});
