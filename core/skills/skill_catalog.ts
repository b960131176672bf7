import type { Skill } from "./skill.ts";

/** Longest catalog line of one skill, its name included; longer descriptions are cut. */
export const MAX_SKILL_LINE = 250;
/** Longest catalog, all lines; skills past it are listed by name only, then counted. */
export const MAX_CATALOG = 6000;

const HEADER = [
  "Skills: instructions for particular tasks, loaded on demand. When a task matches a skill",
  "below, call load_skill with its name before you start, and follow what it says.",
];

/**
 * The skill catalog of the system prompt: one line per model-invocable skill (its name, its
 * description and when to use it, on one line, cut at {@link MAX_SKILL_LINE} characters), at
 * most {@link MAX_CATALOG} characters in all. Undefined when no skill is model-invocable. Pure.
 */
export function skillCatalog(skills: readonly Skill[]): string | undefined {
  const listed = skills.filter((skill) => skill.modelInvocable);
  if (listed.length === 0) return undefined;
  const lines = [...HEADER];
  let size = lines.join("\n").length;
  let index = 0;
  for (; index < listed.length; index++) {
    const line = catalogLine(listed[index]!);
    if (size + 1 + line.length > MAX_CATALOG) break;
    lines.push(line);
    size += 1 + line.length;
  }
  const rest = listed.slice(index).map((skill) => skill.name);
  if (rest.length > 0) {
    const names = cut(
      `- More skills (load_skill gives their instructions): ${rest.join(", ")}`,
      Math.max(80, MAX_CATALOG - size - 1),
    );
    lines.push(names);
  }
  return lines.join("\n");
}

/** `- name: description. When to use` on one line, at most {@link MAX_SKILL_LINE} characters. */
function catalogLine(skill: Skill): string {
  const about = [skill.description, skill.whenToUse ?? ""]
    .map((text) => text.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join(" — ");
  return cut(`- ${skill.name}: ${about}`, MAX_SKILL_LINE);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
