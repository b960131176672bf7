import assert from "node:assert/strict";
import { buildSystemPrompt } from "../request/system_prompt.ts";
import { memorySections } from "./memory_sections.ts";

const WORKSPACE = "/home/u/repo/app";
const files = [
  { source: "memory", path: "/home/u/.claude/CLAUDE.md", text: "Use British spelling.\n" },
  { source: "memory", path: "/home/u/repo/CLAUDE.md", text: "Run deno task test.\n" },
  { source: "memory", path: "/home/u/repo/app/AGENTS.md", text: "\n" },
  { source: "memory", path: "/home/u/repo/app/CLAUDE.local.md", text: "I am on call.\n" },
  { source: "memory.index", path: "/home/u/repo/app/.rein/memory/MEMORY.md", text: "- a\n- b\n" },
  { source: "skills", path: "/home/u/repo/.claude/skills/x/SKILL.md", text: "not memory" },
];

Deno.test("instructions come first in recorded order, each under its path; then the index", () => {
  const [instructions, memory, ...rest] = memorySections(files, WORKSPACE);
  assert.deepEqual(rest, []);
  assert.equal(instructions?.id, "instructions");
  assert.equal(instructions?.stability, 0);
  assert.ok(instructions?.text.startsWith("Project instructions, from the files below"));
  assert.ok(
    instructions?.text.endsWith(
      [
        "Contents of /home/u/.claude/CLAUDE.md:\n\nUse British spelling.",
        "Contents of /home/u/repo/CLAUDE.md:\n\nRun deno task test.",
        "Contents of CLAUDE.local.md:\n\nI am on call.",
      ].join("\n\n"),
    ),
  );
  assert.equal(memory?.id, "memory");
  assert.equal(memory?.stability, 1);
  assert.match(
    memory?.text ?? "",
    /^Memory: you keep notes that last across sessions in \.rein\/memory\/\./,
  );
  assert.ok(memory?.text.endsWith("Contents of .rein/memory/MEMORY.md:\n\n- a\n- b"));
});

Deno.test("no recorded memory files, no sections: older sessions keep their prompt", () => {
  assert.deepEqual(memorySections([], WORKSPACE), []);
  assert.deepEqual(memorySections(files.slice(5), WORKSPACE), []);
});

Deno.test("an empty index still tells the agent where memory goes", () => {
  const [memory] = memorySections([{ ...files[4]!, text: "" }], WORKSPACE);
  assert.match(memory?.text ?? "", /\.rein\/memory\/MEMORY\.md does not exist yet or is empty\.$/);
});

Deno.test("only the first 200 lines of the index are shown, and the rest is pointed to", () => {
  const text = Array.from({ length: 250 }, (_, i) => `- line ${i + 1}`).join("\n") + "\n";
  const [memory] = memorySections([{ ...files[4]!, text }], WORKSPACE);
  assert.ok(memory?.text.includes("- line 200\n\n(50 more lines of .rein/memory/MEMORY.md"));
  assert.ok(!memory?.text.includes("- line 201"));
});

Deno.test("in the system prompt, instructions and memory follow the environment in that order", () => {
  const sections = [
    { id: "skills", stability: 2, text: "SKILLS" },
    ...memorySections(files, WORKSPACE).reverse(),
  ];
  const blocks = buildSystemPrompt({
    workspace: WORKSPACE,
    clockAtStart: "2026-01-01T00:00:00.000Z",
    platform: "linux",
    model: "m",
    tools: [],
    sections,
  });
  const texts = blocks.map((b) => b.text.split("\n")[0]);
  assert.equal(texts[1], "Environment:");
  assert.ok(texts[2]?.startsWith("Project instructions"));
  assert.ok(texts[3]?.startsWith("Memory:"));
  assert.equal(texts[4], "SKILLS");
});
