import assert from "node:assert/strict";
import { join } from "node:path";
import { MAX_SKILL_FILE, readSkillFiles, skillFolders } from "./read_skill_files.ts";
import { skillSet } from "./skill_set.ts";

async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-skills-" }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

async function writeSkill(folder: string, name: string, text: string): Promise<string> {
  await Deno.mkdir(join(folder, name), { recursive: true });
  const path = join(folder, name, "SKILL.md");
  await Deno.writeTextFile(path, text);
  return path;
}

Deno.test("skills are read from the project, then ~/.claude, then the bundled folder, each in name order", async () => {
  await using root = await tempDir();
  const workspace = join(root.path, "app");
  const home = join(root.path, "home");
  const bundled = join(root.path, "rein", "skills");
  const project = join(workspace, ".claude", "skills");
  const user = join(home, ".claude", "skills");
  await writeSkill(project, "zeta", "---\ndescription: project zeta\n---\nZ");
  await writeSkill(project, "alpha", "---\ndescription: project alpha\n---\nA");
  await writeSkill(user, "alpha", "---\ndescription: my alpha\n---\n");
  await writeSkill(bundled, "tour", "---\ndescription: bundled tour\n---\n");
  await Deno.mkdir(join(project, "no-skill-here"));
  await Deno.writeTextFile(join(project, "README.md"), "not a folder");

  const notices: string[] = [];
  const files = await readSkillFiles(
    { workspace, home, onNotice: (m) => notices.push(m) },
    new URL(`file://${bundled}/`),
  );
  assert.deepEqual(files.map((f) => f.path), [
    join(project, "alpha", "SKILL.md"),
    join(project, "zeta", "SKILL.md"),
    join(bundled, "tour", "SKILL.md"),
  ]);
  assert.ok(files.every((f) => f.source === "skills"));
  assert.equal(files[0]?.text, "---\ndescription: project alpha\n---\nA");
  assert.deepEqual(skillSet(files).items.map((s) => s.description), [
    "project alpha",
    "project zeta",
    "bundled tour",
  ]);
  assert.equal(notices.length, 1);
  assert.match(
    notices[0] ?? "",
    /^Skipped the skill at ".*\/home\/\.claude\/skills\/alpha\/SKILL\.md": the skill "alpha"/,
  );
});

Deno.test("a bad SKILL.md is reported with its path and not recorded; the others load", async () => {
  await using root = await tempDir();
  const project = join(root.path, ".claude", "skills");
  const bad = await writeSkill(project, "bad", "# no frontmatter\n");
  const broken = await writeSkill(project, "broken", "---\ndescription: d\n: [oops\n---\n");
  await writeSkill(project, "good", "---\ndescription: fine\n---\n");
  const notices: string[] = [];
  const files = await readSkillFiles(
    { workspace: root.path, home: undefined, onNotice: (m) => notices.push(m) },
    join(root.path, "missing-bundle"),
  );
  assert.deepEqual(
    files.map((f) => f.path),
    [join(project, "good", "SKILL.md")],
    "only the skills in use are recorded: replay derives the same skills from them",
  );
  assert.deepEqual(skillSet(files).items.map((s) => s.name), ["good"]);
  assert.deepEqual(notices.map((m) => m.slice(0, m.indexOf(":", m.indexOf('":')))), [
    `Skipped the skill at "${bad}"`,
    `Skipped the skill at "${broken}"`,
  ]);
});

Deno.test("an oversized or unreadable SKILL.md is reported and not recorded", async () => {
  await using root = await tempDir();
  const project = join(root.path, ".claude", "skills");
  const big = await writeSkill(
    project,
    "big",
    `---\ndescription: big\n---\n${"x".repeat(MAX_SKILL_FILE)}`,
  );
  const binary = join(project, "binary", "SKILL.md");
  await Deno.mkdir(join(project, "binary"));
  await Deno.writeFile(binary, new Uint8Array([0xff, 0xfe, 0x00]));
  const notices: string[] = [];
  const files = await readSkillFiles(
    { workspace: root.path, home: root.path, onNotice: (m) => notices.push(m) },
    join(root.path, "missing-bundle"),
  );
  assert.deepEqual(files, []);
  assert.deepEqual(notices, [
    `Skipped the skill at "${big}": it is ${
      MAX_SKILL_FILE + 25
    } bytes, over the ${MAX_SKILL_FILE}-byte limit`,
    `Skipped the skill at "${binary}": cannot read it: it is not UTF-8 text`,
  ]);
});

Deno.test("a folder named twice is read once; a missing one is no notice", async () => {
  await using root = await tempDir();
  const place = { workspace: root.path, home: root.path, onNotice: () => {} };
  assert.deepEqual(skillFolders(place, `${root.path}/b/`), [
    join(root.path, ".claude", "skills"),
    join(root.path, "b"),
  ]);
  const notices: string[] = [];
  const files = await readSkillFiles({ ...place, onNotice: (m) => notices.push(m) }, "/nowhere");
  assert.deepEqual([files, notices], [[], []]);
});
