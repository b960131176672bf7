import assert from "node:assert/strict";
import type { Skill } from "./skill.ts";
import { MAX_CATALOG, MAX_SKILL_LINE, skillCatalog } from "./skill_catalog.ts";

function skill(name: string, fields: Partial<Skill> = {}): Skill {
  return {
    name,
    description: `Does ${name}`,
    allowedTools: [],
    modelInvocable: true,
    body: "",
    path: `/s/${name}/SKILL.md`,
    directory: `/s/${name}`,
    ...fields,
  };
}

Deno.test("the catalog lists each model-invocable skill on one line with when to use it", () => {
  const text = skillCatalog([
    skill("pdf", { description: "Fill PDF\n  forms", whenToUse: "When a PDF comes up" }),
    skill("deploy", { modelInvocable: false }),
    skill("review"),
  ]);
  assert.equal(
    text,
    [
      "Skills: instructions for particular tasks, loaded on demand. When a task matches a skill",
      "below, call load_skill with its name before you start, and follow what it says.",
      "- pdf: Fill PDF forms — When a PDF comes up",
      "- review: Does review",
    ].join("\n"),
  );
});

Deno.test("no catalog when no skill may be loaded by the model", () => {
  assert.equal(skillCatalog([]), undefined);
  assert.equal(skillCatalog([skill("deploy", { modelInvocable: false })]), undefined);
});

Deno.test("a long description is cut to the line limit", () => {
  const text = skillCatalog([skill("long", { description: "word ".repeat(200) })]) ?? "";
  const line = text.split("\n").at(-1) ?? "";
  assert.ok(line.length <= MAX_SKILL_LINE, `${line.length}`);
  assert.ok(line.endsWith("…"));
  assert.ok(line.startsWith("- long: word word"));
});

Deno.test("past the catalog limit, the other skills are named without descriptions", () => {
  const many = Array.from(
    { length: 100 },
    (_, i) => skill(`skill-${i}`, { description: "x".repeat(200) }),
  );
  const text = skillCatalog(many) ?? "";
  assert.ok(text.length <= MAX_CATALOG, `${text.length}`);
  const last = text.split("\n").at(-1) ?? "";
  assert.match(last, /^- More skills \(load_skill gives their instructions\): skill-\d+, /);
  assert.ok(last.includes("skill-99") || last.endsWith("…"));
});
