import { parseRule, type Rule } from "./rule.ts";
import type { PermissionRules } from "./decide.ts";

/** Parses rule texts for a test, throwing on a malformed one. */
export function rulesOf(
  lists: { allow?: string[]; ask?: string[]; deny?: string[] },
  /** Bash rules read as Claude Code's, as in sessions recorded with the feature (the default). */
  claudeBash = true,
): PermissionRules {
  const parse = (texts: string[] = []): Rule[] =>
    texts.map((text) => {
      const parsed = parseRule(text);
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.rule;
    });
  return {
    allow: parse(lists.allow),
    ask: parse(lists.ask),
    deny: parse(lists.deny),
    ...(claudeBash ? { claudeBash } : {}),
  };
}

export const CONTEXT = {
  cwd: "/home/alice/proj",
  home: "/home/alice",
  projectRoot: "/home/alice/proj",
} as const;
