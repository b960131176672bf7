import type { SettingsSnapshot } from "../../events/event_types.ts";
import { recordedSettings } from "../settings/recorded_settings.ts";
import type { PermissionMode, Settings } from "../settings/settings.ts";
import type { PermissionRules } from "./decide.ts";
import type { PathContext } from "./path_match.ts";
import { spacedLegacyPrefix } from "./bash_match.ts";
import { parseRule, type Rule } from "./rule.ts";

/**
 * The session feature of Bash rules read as Claude Code reads them (see
 * `PermissionRules.claudeBash`); sessions recorded before it keep the rules they ran with.
 */
export const CLAUDE_BASH_RULES = "claude_bash_rules";

/** A rule with where it came from: a settings file's path, a flag, or "this session". */
export interface SourcedRule extends Rule {
  readonly file: string;
}

/** Everything that decides calls in a session, derived from its recorded settings. */
export interface PermissionPolicy {
  rules: PermissionRules<SourcedRule>;
  mode: PermissionMode;
  /** Directories outside the workspace the person allowed (`additionalDirectories`). */
  additionalDirectories: readonly string[];
  context: PathContext;
  /** Whether a person can be asked (the REPL); otherwise what would ask is denied. */
  interactive: boolean;
  /** The merged settings (hooks, sandbox, env). */
  settings: Settings;
  /** Every problem found, each naming its file and quoting the text: shown at start. */
  diagnostics: readonly string[];
}

const LISTS = ["allow", "ask", "deny"] as const;

/**
 * The policy of a session from its settings snapshot: each file's rules tagged with the file,
 * the command line's `--allowedTools` / `--disallowedTools` first, the mode from
 * `--permission-mode`, else the highest file's `defaultMode`, else `default`. A malformed rule
 * is reported and skipped; the other rules all stay. Pure.
 */
export function permissionPolicy(snapshot: SettingsSnapshot, workspace: string): PermissionPolicy {
  const recorded = recordedSettings(snapshot);
  const diagnostics: string[] = [];
  const claudeBash = snapshot.features?.includes(CLAUDE_BASH_RULES) === true;
  const rules: PermissionRules<SourcedRule> & {
    allow: SourcedRule[];
    ask: SourcedRule[];
    deny: SourcedRule[];
  } = {
    allow: [],
    ask: [],
    deny: [],
    ...(snapshot.wholeCommandRules ? { wholeLines: true } : {}),
    ...(claudeBash ? { claudeBash: true } : {}),
  };
  const add = (list: typeof LISTS[number], text: string, file: string) => {
    const parsed = parseRule(text);
    if (parsed.ok) rules[list].push({ ...parsed.rule, file });
    else diagnostics.push(`${parsed.message} (in ${file})`);
    const { specifier } = parsed.ok ? parsed.rule : {};
    if (claudeBash && specifier !== undefined && spacedLegacyPrefix(specifier)) {
      diagnostics.push(spacedPrefixWarning(text.trim(), list, file));
    }
  };
  for (const text of splitToolList(snapshot.flags.allowedTools ?? [])) {
    add("allow", text, "--allowedTools");
  }
  for (const text of splitToolList(snapshot.flags.disallowedTools ?? [])) {
    add("deny", text, "--disallowedTools");
  }
  for (const file of recorded.files) {
    for (const list of LISTS) {
      for (const text of file.settings.permissions?.[list] ?? []) add(list, text, file.path);
    }
  }
  const { settings } = recorded;
  return {
    rules,
    mode: recorded.mode,
    additionalDirectories: recorded.additionalDirectories,
    context: { cwd: workspace, home: snapshot.home, projectRoot: workspace },
    interactive: snapshot.interactive,
    settings,
    diagnostics: [...recorded.diagnostics, ...diagnostics],
  };
}

/**
 * Rules from `--allowedTools` / `--disallowedTools` values: each value may hold several rules
 * separated by commas or spaces (`"Bash(git log *) Edit"`), never split inside parentheses.
 */
export function splitToolList(values: readonly string[]): string[] {
  const rules: string[] = [];
  for (const value of values) {
    let depth = 0;
    let current = "";
    for (const char of value) {
      if (char === "(") depth++;
      if (char === ")") depth = Math.max(0, depth - 1);
      if (depth === 0 && (char === "," || /\s/.test(char))) {
        if (current !== "") rules.push(current);
        current = "";
      } else current += char;
    }
    if (current !== "") rules.push(current);
  }
  return rules;
}

/**
 * The one warning about a rule with a space before its legacy `:*`: Claude Code reads the space
 * as part of the prefix, so the rule matches no command there. rein allows nothing by such an
 * allow rule, as Claude Code, but denies or asks by a deny or ask rule as by `prefix *`: stricter
 * on purpose, and said so.
 */
function spacedPrefixWarning(text: string, list: "allow" | "ask" | "deny", file: string): string {
  const fixed = text.replace(/\s+:\*\)$/, " *)");
  const what = list === "allow"
    ? "rein allows nothing by it either"
    : `rein is stricter on purpose and ${list === "deny" ? "denies" : "asks about"} what ` +
      `${fixed} matches`;
  return `Permission rule "${text}" (in ${file}): Claude Code reads the space before ":*" as ` +
    `part of the prefix, so it matches no command there; ${what}. Write ${fixed}`;
}
