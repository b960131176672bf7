import type { Mechanism } from "../mechanism.ts";
import { loadSkillTool } from "./load_skill_tool.ts";
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
    sections(scope) {
      const text = skillCatalog(skillsOf(scope.state, scope.session));
      // After the instructions and the memory index (same stability, registered after memory).
      return text === undefined ? [] : [{ id: "skills", stability: 1, text }];
    },
    readFiles: (place) => readSkillFiles(place, bundled),
  };
}
