import type { Mechanism } from "../mechanism.ts";
import type { SystemSection } from "../request/system_prompt.ts";
import type { ConversationMessage } from "../../events/event_types.ts";
import { loadSkill, type LoadSkillInput, loadSkillTool } from "./load_skill_tool.ts";
import type { Skill } from "./skill.ts";
import { readSkillFiles } from "./read_skill_files.ts";
import { skillCatalog } from "./skill_catalog.ts";
import { modelSkillsOf, skillsOf } from "./skill_set.ts";

/**
 * Skills (s07), Claude Code's SKILL.md format in two levels: the catalog (name, description)
 * in the system prompt and the body on demand through `load_skill`. The SKILL.md files of the
 * project's `.claude/skills/`, the person's `~/.claude/skills/` and `bundled` (rein's `skills/`
 * folder; the caller passes its URL, since only the composition root sits where both the source
 * tree and the bundle can name it) are read when a session starts or resumes and recorded with
 * it; the catalog, the tool and `/name` invocation read the recorded copies only. A session that
 * recorded no usable skill (a log from before skills) gets neither the section nor the tool, so
 * its requests replay unchanged.
 */
export function skillsMechanism(bundled: URL | string): Mechanism {
  return {
    name: "skills",
    // A skill the person runs by name (`/name args`) is recorded by the REPL, outside the loop.
    fedTypes: ["skill.invoked"],
    tools: (scope) => modelSkillsOf(scope.state, scope.session).length > 0 ? [loadSkillTool] : [],
    sections: (scope) => catalogSections(skillsOf(scope.state, scope.session)),
    readFiles: (place) => readSkillFiles(place, bundled),
    stages: {
      // The skills the agent loaded were in the messages a compaction summarised: put back.
      afterCompact: (context, _completed, before) => {
        const view = context.view().sessions.byId[context.session];
        if (!view) return Promise.resolve([]);
        const texts = loadedSkills(
          before,
          skillsOf(context.view(), context.session),
          view.workspace,
        );
        return Promise.resolve(texts.map((text) => ({
          type: "reminder.added" as const,
          data: { source: "skills", text },
        })));
      },
    },
  };
}

/** The catalog section of each recorded set of skills, made once (sets are never changed). */
const catalogs = new WeakMap<readonly Skill[], SystemSection[]>();

function catalogSections(skills: readonly Skill[]): SystemSection[] {
  let sections = catalogs.get(skills);
  if (!sections) {
    const text = skillCatalog(skills);
    // After the instructions and the memory index (same stability, registered after memory).
    sections = text === undefined ? [] : [{ id: "skills", stability: 1, text }];
    catalogs.set(skills, sections);
  }
  return sections;
}

/**
 * The skills loaded (successfully) with load_skill in `messages`, each as load_skill answers it
 * now, from the session's recorded skills, once per skill. Pure.
 */
export function loadedSkills(
  messages: readonly ConversationMessage[],
  skills: readonly Skill[],
  workspace: string,
): string[] {
  const failed = new Set<string>();
  const calls: { id: string; input: LoadSkillInput }[] = [];
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "tool_use" && block.name === "load_skill") {
        calls.push({ id: String(block.id), input: block.input as LoadSkillInput });
      } else if (block.type === "tool_result" && block.is_error === true) {
        failed.add(String(block.tool_use_id));
      }
    }
  }
  const seen = new Set<string>();
  const texts: string[] = [];
  for (const call of calls) {
    if (failed.has(call.id) || typeof call.input?.skill !== "string" || call.input.file) continue;
    const name = call.input.skill.trim().replace(/^\//, "");
    if (seen.has(name)) continue;
    seen.add(name);
    const loaded = loadSkill(skills, call.input, workspace);
    if (!loaded.isError) {
      texts.push(
        `The skill "${name}" was loaded before the compaction; here it is again:\n\n` +
          loaded.content,
      );
    }
  }
  return texts;
}
