import type { RecordedFile } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";
import { type AgentDefinition, parseAgentDefinition } from "./agent_definition.ts";
import { BUILT_IN_AGENTS } from "./built_in_agents.ts";

/** The `source` of the files the agents mechanism records. */
export const AGENTS_SOURCE = "agents";

/** The subagent types of a session, and why any definition file was left out. */
export interface AgentSet {
  items: AgentDefinition[];
  diagnostics: string[];
}

/**
 * The subagent types of `files` (the recorded definition files, the project's before the
 * person's in `~/.claude`) with the built-in ones. A file that cannot be parsed is left out with
 * a diagnostic naming its path; so is a definition whose name an earlier file already took (a
 * project agent shadows a user agent of the same name). A definition named like a built-in type
 * replaces it, in its place. Pure.
 */
export function agentSet(files: readonly RecordedFile[]): AgentSet {
  const diagnostics: string[] = [];
  const defined = new Map<string, AgentDefinition>();
  for (const file of files) {
    if (file.source !== AGENTS_SOURCE) continue;
    const parsed = parseAgentDefinition(file.path, file.text);
    if (!parsed.ok) {
      diagnostics.push(parsed.message);
      continue;
    }
    // A plugin's agent is the subagent type `<plugin>:<name>`, as in Claude Code.
    const definition = file.plugin === undefined
      ? parsed.definition
      : { ...parsed.definition, name: `${file.plugin}:${parsed.definition.name}` };
    const taken = defined.get(definition.name);
    if (taken) {
      diagnostics.push(
        `Skipped the agent definition at "${file.path}": the agent "${taken.name}" at ` +
          `"${taken.path}" has the same name and takes precedence (project agents over ` +
          "~/.claude agents)",
      );
      continue;
    }
    defined.set(definition.name, definition);
  }
  const builtIn = BUILT_IN_AGENTS.map((agent) => defined.get(agent.name) ?? agent);
  const names = new Set(BUILT_IN_AGENTS.map((agent) => agent.name));
  const items = [...builtIn, ...[...defined.values()].filter((agent) => !names.has(agent.name))];
  return { items, diagnostics };
}

const parsedSets = new WeakMap<readonly RecordedFile[], AgentDefinition[]>();

/**
 * The subagent types of `session`: the built-in ones and the definitions it recorded at its
 * start or its last resume. Pure; parsed once per recorded list of files.
 */
export function agentTypesOf(state: State, session: string): readonly AgentDefinition[] {
  const files = state.sessions.byId[session]?.files ?? [];
  let types = parsedSets.get(files);
  if (!types) {
    types = agentSet(files).items;
    parsedSets.set(files, types);
  }
  return types;
}
