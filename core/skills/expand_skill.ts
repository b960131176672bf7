import type { Skill } from "./skill.ts";

/**
 * The prompt a skill invoked by name becomes: its body with every `$ARGUMENTS` replaced by
 * `args`; a body without `$ARGUMENTS` gets `ARGUMENTS: args` appended when `args` is not blank
 * (as Claude Code does). Pure.
 */
export function expandSkill(skill: Pick<Skill, "body">, args: string): string {
  const body = skill.body.trimEnd();
  if (body.includes("$ARGUMENTS")) return body.replaceAll("$ARGUMENTS", () => args.trim());
  return args.trim() === "" ? body : `${body}\n\nARGUMENTS: ${args.trim()}`;
}
