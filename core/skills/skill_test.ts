import assert from "node:assert/strict";
import { parseSkill } from "./skill.ts";

const PATH = "/work/app/.claude/skills/pdf/SKILL.md";

Deno.test("a SKILL.md's frontmatter gives the skill's fields and the text after it its body", () => {
  const parsed = parseSkill(
    PATH,
    [
      "---",
      "name: pdf-tools",
      "description: Fill and merge PDF forms",
      "when_to_use: When the user mentions a PDF",
      "allowed-tools: Read, Bash(pdftk *)",
      "disable-model-invocation: false",
      "argument-hint: [file]",
      "license: MIT",
      "---",
      "",
      "Open $ARGUMENTS with pdftk.",
      "",
    ].join("\n"),
  );
  assert.deepEqual(parsed, {
    ok: true,
    skill: {
      name: "pdf-tools",
      description: "Fill and merge PDF forms",
      whenToUse: "When the user mentions a PDF",
      allowedTools: ["Read", "Bash(pdftk *)"],
      modelInvocable: true,
      argumentHint: "[file]",
      body: "Open $ARGUMENTS with pdftk.\n",
      path: PATH,
      directory: "/work/app/.claude/skills/pdf",
    },
  });
});

Deno.test("a skill without a name is named after its directory; optional fields stay absent", () => {
  const parsed = parseSkill(PATH, "---\r\ndescription: >\r\n  Folded\r\n  text\r\n---\r\nBody");
  assert.ok(parsed.ok);
  assert.equal(parsed.skill.name, "pdf");
  assert.equal(parsed.skill.description, "Folded text");
  assert.equal(parsed.skill.body, "Body");
  assert.equal("whenToUse" in parsed.skill, false);
  assert.equal("argumentHint" in parsed.skill, false);
  assert.deepEqual(parsed.skill.allowedTools, []);
});

Deno.test("allowed-tools may be a YAML list; disable-model-invocation keeps a skill from the model", () => {
  const parsed = parseSkill(
    PATH,
    "---\ndescription: d\nallowed-tools:\n  - Read\n  - Grep\ndisable-model-invocation: true\n---\n",
  );
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.skill.allowedTools, ["Read", "Grep"]);
  assert.equal(parsed.skill.modelInvocable, false);
  assert.equal(parsed.skill.body, "");
});

const MALFORMED: { name: string; text: string; message: RegExp }[] = [
  { name: "no frontmatter", text: "# Just markdown\n", message: /has no frontmatter/ },
  {
    name: "frontmatter not at the start",
    text: "intro\n---\ndescription: d\n---\n",
    message: /has no frontmatter/,
  },
  { name: "unclosed frontmatter", text: "---\ndescription: d\n", message: /has no frontmatter/ },
  {
    name: "YAML that does not parse",
    text: "---\ndescription: d\n: [unclosed\n---\n",
    message: /frontmatter is not valid YAML: /,
  },
  {
    name: "YAML that is not a mapping",
    text: "---\n- a\n- b\n---\n",
    message: /not a YAML mapping/,
  },
  { name: "empty frontmatter", text: "---\n---\nbody", message: /has no description/ },
  { name: "no description", text: "---\nname: x\n---\n", message: /has no description/ },
  {
    name: "a blank description",
    text: "---\ndescription: '  '\n---\n",
    message: /description is not a non-empty text/,
  },
  {
    name: "a description that is a list",
    text: "---\ndescription: [a, b]\n---\n",
    message: /description is not a non-empty text/,
  },
  {
    name: "a name that is a number",
    text: "---\nname: 42\ndescription: d\n---\n",
    message: /name 42 is not a name/,
  },
  {
    name: "a name over 64 characters",
    text: `---\nname: ${"a".repeat(65)}\ndescription: d\n---\n`,
    message: /at most 64 characters/,
  },
  {
    name: "when_to_use that is not text",
    text: "---\ndescription: d\nwhen_to_use: {a: 1}\n---\n",
    message: /when_to_use is not a text/,
  },
  {
    name: "allowed-tools that is a mapping",
    text: "---\ndescription: d\nallowed-tools: {Read: true}\n---\n",
    message: /allowed-tools is neither/,
  },
  {
    name: "disable-model-invocation that is not a boolean",
    text: "---\ndescription: d\ndisable-model-invocation: 'yes'\n---\n",
    message: /disable-model-invocation is not true or false/,
  },
  {
    name: "argument-hint that is a mapping",
    text: "---\ndescription: d\nargument-hint: {a: 1}\n---\n",
    message: /argument-hint is not a text/,
  },
];

for (const { name, text, message } of MALFORMED) {
  Deno.test(`a SKILL.md with ${name} is refused with its path and the reason`, () => {
    const parsed = parseSkill(PATH, text);
    assert.equal(parsed.ok, false);
    if (parsed.ok) return;
    assert.match(parsed.message, new RegExp(`^Skipped the skill at "${PATH}": `));
    assert.match(parsed.message, message);
  });
}

Deno.test("a skill whose name is a title is loaded by its folder's name, as Claude Code does", () => {
  const parsed = parseSkill(PATH, "---\nname: PDF Tools\ndescription: d\n---\nBody\n");
  assert.equal(parsed.ok, true);
  if (parsed.ok) assert.equal(parsed.skill.name, "pdf");
  const nowhere = "/work/app/.claude/skills/my skill/SKILL.md";
  const refused = parseSkill(nowhere, "---\nname: My Skill\ndescription: d\n---\n");
  assert.equal(refused.ok, false);
  if (!refused.ok) assert.match(refused.message, /name "My Skill" is not a name \/name can invoke/);
});

Deno.test("frontmatter Claude Code users write that YAML refuses is read line by line", () => {
  const parsed = parseSkill(
    PATH,
    "---\ndescription: Fill [forms] in: PDFs\nargument-hint: [file] [pages]\nallowed-tools:\n  - Read\n  - Bash(pdftk:*)\n---\nBody\n",
  );
  assert.equal(parsed.ok, true);
  if (!parsed.ok) return;
  assert.equal(parsed.skill.description, "Fill [forms] in: PDFs");
  assert.equal(parsed.skill.argumentHint, "[file] [pages]");
  assert.deepEqual(parsed.skill.allowedTools, ["Read", "Bash(pdftk:*)"]);
});
