import type { RecordedFile } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";
import { parseSkill, type Skill } from "./skill.ts";

/** The `source` of the files the skills mechanism records. */
export const SKILLS_SOURCE = "skills";

/** The skills of a set of SKILL.md files, and why any of them was left out. */
export interface SkillSet {
  items: Skill[];
  diagnostics: string[];
}

/**
 * The skills of `files` (the recorded SKILL.md files, in precedence order: the project's, then
 * the person's in `~/.claude`, then rein's bundled ones). A file that cannot be parsed is left
 * out with a diagnostic naming its path; so is a skill whose name an earlier file already took
 * (a project skill shadows a user skill of the same name, which shadows a bundled one). Pure.
 */
export function skillSet(files: readonly RecordedFile[]): SkillSet {
  const items: Skill[] = [];
  const diagnostics: string[] = [];
  const byName = new Map<string, Skill>();
  for (const file of files) {
    if (file.source !== SKILLS_SOURCE) continue;
    const parsed = parseSkill(file.path, file.text);
    if (!parsed.ok) {
      diagnostics.push(parsed.message);
      continue;
    }
    // A plugin's skill is `<plugin>:<name>`, as in Claude Code.
    if (file.plugin !== undefined) {
      parsed.skill = { ...parsed.skill, name: `${file.plugin}:${parsed.skill.name}` };
    }
    const taken = byName.get(parsed.skill.name);
    if (taken) {
      diagnostics.push(
        `Skipped the skill at "${file.path}": the skill "${taken.name}" at "${taken.path}" ` +
          `has the same name and takes precedence (project skills over ~/.claude skills over ` +
          `bundled ones)`,
      );
      continue;
    }
    byName.set(parsed.skill.name, parsed.skill);
    items.push(parsed.skill);
  }
  return { items, diagnostics };
}

const parsedSets = new WeakMap<readonly RecordedFile[], Skill[]>();

/**
 * The skills `session` recorded at its start or its last resume (none for an unknown session or
 * a log without recorded skills). Pure; parsed once per recorded list of files.
 */
export function skillsOf(state: State, session: string): readonly Skill[] {
  const files = state.sessions.byId[session]?.files;
  if (!files || files.length === 0) return [];
  let skills = parsedSets.get(files);
  if (!skills) {
    skills = skillSet(files).items;
    parsedSets.set(files, skills);
  }
  return skills;
}

/** The skills of {@link skillsOf} the model may load (not `disable-model-invocation`). Pure. */
export function modelSkillsOf(state: State, session: string): readonly Skill[] {
  const skills = skillsOf(state, session);
  let invocable = modelSets.get(skills);
  if (!invocable) {
    invocable = skills.filter((skill) => skill.modelInvocable);
    modelSets.set(skills, invocable);
  }
  return invocable;
}

/** The skills of each parsed set the model may load (asked for by the pool, several times a round). */
const modelSets = new WeakMap<readonly Skill[], readonly Skill[]>();

/**
 * The `allowed-tools` of `session`'s skill `name` and its SKILL.md, or undefined for no such
 * skill: what the skill pre-approves while it runs. Pure.
 */
export function skillRules(
  state: State,
  session: string,
  name: string,
): { rules: readonly string[]; file: string } | undefined {
  const skill = skillsOf(state, session).find((s) => s.name === name);
  return skill && { rules: skill.allowedTools, file: skill.path };
}
