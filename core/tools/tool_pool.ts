import type { State } from "../state/state.ts";
import { type ToolDefinition, toolDefinition } from "./schema.ts";
import type { AnyTool } from "./tool.ts";

/** Whose pool: a session's agent, as the state knows it now. */
export interface PoolScope {
  state: State;
  session: string;
  agent: string;
}

/** A source of tools: the base tools, a mechanism's tools, an MCP server's tools. */
export type ToolSource = (scope: PoolScope) => readonly AnyTool[];

/** The tools one agent may call in its next round, with the definitions the model sees. */
export interface ToolPool {
  tools: readonly AnyTool[];
  definitions: readonly ToolDefinition[];
  byName: ReadonlyMap<string, AnyTool>;
}

/**
 * Assemble the pool of `scope`'s agent from `sources`, in order; the first tool of a name wins.
 * Definitions (JSON Schemas) are computed once per tool object and cached, so assembling a pool
 * for every round costs a few lookups.
 */
export function toolPool(scope: PoolScope, sources: readonly ToolSource[]): ToolPool {
  const byName = new Map<string, AnyTool>();
  for (const source of sources) {
    for (const tool of source(scope)) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  }
  const tools = [...byName.values()];
  return { tools, definitions: tools.map(cachedDefinition), byName };
}

const definitions = new WeakMap<AnyTool, ToolDefinition>();

/** {@link toolDefinition}, computed once per tool object. */
export function cachedDefinition(tool: AnyTool): ToolDefinition {
  let definition = definitions.get(tool);
  if (!definition) {
    definition = toolDefinition(tool);
    definitions.set(tool, definition);
  }
  return definition;
}
