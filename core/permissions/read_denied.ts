import { resolve } from "../../events/posix_path.ts";
import type { State } from "../state/state.ts";
import type { ReadDenyJudge } from "../tools/read_deny.ts";
import type { PermissionRules } from "./decide.ts";
import { loadPathMatcher, type PathContext, pathRuleMatches } from "./path_match.ts";
import type { Rule } from "./rule.ts";
import { permissionsOf } from "./session_permissions.ts";
import { agentCwd } from "../state/agent_place.ts";
import { knownToolNames } from "../tools/tool_names.ts";

/**
 * The deny rule that keeps `tool` (grep, glob, read_file) from reading `file`, an absolute path:
 * a `Read` deny rule (which covers every tool that reads files) or one of the tool's own
 * (`Grep(./secrets/**)`), matched as the permission gate matches the path a call names. A rule
 * without a path covers every file. Pure; call `loadPathMatcher` once first.
 */
export function readDenyRule<R extends Rule>(
  tool: string,
  file: string,
  rules: PermissionRules<R>,
  context: PathContext,
): R | undefined {
  return rules.deny.find((rule) =>
    knownToolNames().covers(rule.tool, tool, "deny") &&
    (rule.specifier === undefined || pathRuleMatches(rule.specifier, file, context))
  );
}

/**
 * A judge of which files `tool` (grep or glob) must leave out of what it shows, for `rules` in
 * `context`: a file is left out when a deny rule covers any of its names (paths relative to the
 * working directory, or absolute). Null when no deny rule can cover a file, so a search checks
 * none. The judge is pure.
 */
export async function readDenyJudgeOf(
  tool: string,
  rules: PermissionRules,
  context: PathContext,
): Promise<ReadDenyJudge | null> {
  const names = knownToolNames();
  const denials = rules.deny.filter((rule) => names.covers(rule.tool, tool, "deny"));
  if (denials.length === 0) return null;
  if (denials.some((rule) => rule.specifier === undefined)) return () => true;
  await loadPathMatcher();
  const only = { deny: denials, ask: [], allow: [] };
  return (names) => {
    let previous = "";
    for (const name of names) {
      const file = resolve(context.cwd, name);
      if (file === previous) continue;
      if (readDenyRule(tool, file, only, context) !== undefined) return true;
      previous = file;
    }
    return false;
  };
}

/**
 * The judge of the files `tool` must leave out for `session` now, from the session's recorded
 * permissions (settings and flags): see {@link readDenyJudgeOf}. Null for a session recorded
 * without settings, or without deny rules that can cover a file.
 */
export function readDeniedJudge(
  state: State,
  session: string,
  tool: string,
  agent?: string,
): Promise<ReadDenyJudge | null> {
  const permissions = permissionsOf(state, session);
  if (permissions === undefined) return Promise.resolve(null);
  const { rules, context } = permissions.policy;
  const cwd = agent === undefined
    ? context.cwd
    : agentCwd(state.sessions.byId[session], agent, context.cwd);
  return readDenyJudgeOf(tool, rules, { ...context, cwd });
}
