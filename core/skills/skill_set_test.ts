import assert from "node:assert/strict";
import type { RecordedFile } from "../../events/event_types.ts";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { foldEvents } from "../state/state.ts";
import { modelSkillsOf, skillSet, skillsOf } from "./skill_set.ts";

function file(path: string, frontmatter: string, body = "Body"): RecordedFile {
  return { source: "skills", path, text: `---\n${frontmatter}\n---\n${body}` };
}

Deno.test("the first skill of a name wins: project over ~/.claude over bundled, each clash reported", () => {
  const set = skillSet([
    file("/app/.claude/skills/review/SKILL.md", "description: project review"),
    file("/home/me/.claude/skills/review/SKILL.md", "description: my review"),
    file("/home/me/.claude/skills/notes/SKILL.md", "description: my notes"),
    file("/rein/skills/notes/SKILL.md", "description: bundled notes"),
  ]);
  assert.deepEqual(set.items.map((s) => [s.name, s.description]), [
    ["review", "project review"],
    ["notes", "my notes"],
  ]);
  assert.deepEqual(set.diagnostics, [
    'Skipped the skill at "/home/me/.claude/skills/review/SKILL.md": the skill "review" at ' +
    '"/app/.claude/skills/review/SKILL.md" has the same name and takes precedence (project ' +
    "skills over ~/.claude skills over bundled ones)",
    'Skipped the skill at "/rein/skills/notes/SKILL.md": the skill "notes" at ' +
    '"/home/me/.claude/skills/notes/SKILL.md" has the same name and takes precedence (project ' +
    "skills over ~/.claude skills over bundled ones)",
  ]);
});

Deno.test("a bad file is reported and the others still load; other mechanisms' files are ignored", () => {
  const set = skillSet([
    file("/app/.claude/skills/bad/SKILL.md", "name: bad"),
    { source: "memory", path: "/app/CLAUDE.md", text: "---\ndescription: not a skill\n---\n" },
    file("/app/.claude/skills/good/SKILL.md", "description: good"),
  ]);
  assert.deepEqual(set.items.map((s) => s.name), ["good"]);
  assert.equal(set.diagnostics.length, 1);
  assert.match(
    set.diagnostics[0] ?? "",
    /^Skipped the skill at "\/app\/\.claude\/skills\/bad\/SKILL\.md": /,
  );
});

Deno.test("given a session that recorded skills, when it resumes with new files, then its skills are the new ones", () => {
  const event = eventFactory("s1");
  const started = [
    event("session.started", {
      ...startedData(),
      files: [
        file("/app/.claude/skills/a/SKILL.md", "description: first"),
        file(
          "/app/.claude/skills/hidden/SKILL.md",
          "description: h\ndisable-model-invocation: true",
        ),
      ],
    }),
  ];
  const state = foldEvents(started);
  assert.deepEqual(skillsOf(state, "s1").map((s) => s.description), ["first", "h"]);
  assert.deepEqual(modelSkillsOf(state, "s1").map((s) => s.name), ["a"]);
  assert.equal(skillsOf(state, "s1"), skillsOf(state, "s1"), "parsed once per recorded list");
  assert.deepEqual(skillsOf(state, "unknown"), []);

  const resumed = foldEvents([
    ...started,
    event("session.resumed", {
      how: "continue",
      withPrompt: true,
      maxTurns: null,
      files: [file("/app/.claude/skills/a/SKILL.md", "description: second")],
    }),
  ]);
  assert.deepEqual(skillsOf(resumed, "s1").map((s) => s.description), ["second"]);
});

Deno.test("a session from before skills has none", () => {
  const event = eventFactory("s1");
  assert.deepEqual(skillsOf(foldEvents([event("session.started", startedData())]), "s1"), []);
});
