import assert from "node:assert/strict";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { foldEvents } from "../state/state.ts";
import { readSkillFiles } from "./read_skill_files.ts";
import { skillSet } from "./skill_set.ts";
import { skillsMechanism } from "./skills_mechanism.ts";

const BUNDLED = new URL("../../skills/", import.meta.url);

Deno.test("a session that recorded no skills gets no catalog and no load_skill (old logs replay unchanged)", () => {
  const mechanism = skillsMechanism(BUNDLED);
  const event = eventFactory("s1");
  const state = foldEvents([event("session.started", startedData())]);
  const scope = { state, session: "s1", agent: "lead" };
  assert.deepEqual(mechanism.sections?.(scope), []);
  assert.deepEqual(mechanism.tools?.(scope), []);
});

Deno.test("a session with skills gets the catalog as a stable section and the load_skill tool", () => {
  const mechanism = skillsMechanism(BUNDLED);
  const event = eventFactory("s1");
  const state = foldEvents([
    event("session.started", {
      ...startedData(),
      files: [{ source: "skills", path: "/a/review/SKILL.md", text: "---\ndescription: R\n---\n" }],
    }),
  ]);
  const scope = { state, session: "s1", agent: "lead" };
  const sections = mechanism.sections?.(scope) ?? [];
  assert.deepEqual(sections.map((s) => [s.id, s.stability]), [["skills", 1]]);
  assert.match(sections[0]?.text ?? "", /\n- review: R$/);
  assert.deepEqual(mechanism.tools?.(scope).map((t) => t.name), ["load_skill"]);
});

Deno.test("rein's bundled skills are valid, model-invocable and short", async () => {
  const notices: string[] = [];
  const files = await readSkillFiles(
    { workspace: "/nonexistent-workspace", home: undefined, onNotice: (m) => notices.push(m) },
    BUNDLED,
  );
  assert.deepEqual(notices, []);
  const { items } = skillSet(files);
  assert.deepEqual(items.map((s) => s.name), ["investigate-a-run", "write-a-hook"]);
  for (const skill of items) {
    assert.ok(skill.modelInvocable);
    assert.ok(skill.body.split("\n").length < 150, `${skill.name} is too long`);
  }
});
