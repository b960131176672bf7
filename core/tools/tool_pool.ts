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

/**
 * Narrows a pool: keeps the tools an agent may see (a subagent's subset, a plan mode's read-only
 * tools), or puts a tool of the same name in a tool's place (bash with background jobs). Gets the
 * pool so far, returns the tools to keep, in order.
 */
export type ToolFilter = (scope: PoolScope, tools: readonly AnyTool[]) => readonly AnyTool[];

/** The tools one agent may call in its next round, with the definitions the model sees. */
export interface ToolPool {
  tools: readonly AnyTool[];
  definitions: readonly ToolDefinition[];
  byName: ReadonlyMap<string, AnyTool>;
}

/**
 * Assemble the pool of `scope`'s agent from `sources`, in order (the first tool of a name wins),
 * then narrow it by `filters`, in order. When that gives the tools of `previous` (the agent's pool
 * made before), in the same order, `previous` itself is the pool: a pool is asked for several
 * times a round, and what is built from it by object (the system prompt, the request digest's
 * parts) is then found again. Definitions (JSON Schemas) are computed once per tool object.
 */
export function toolPool(
  scope: PoolScope,
  sources: readonly ToolSource[],
  filters: readonly ToolFilter[] = [],
  previous?: ToolPool,
): ToolPool {
  // Asked for several times a round: when the sources give the tools they gave for `previous`,
  // its list is taken again as it is (the same array, which a filter may know).
  const sourced: AnyTool[] = [];
  for (const source of sources) for (const tool of source(scope)) sourced.push(tool);
  const before = previous ? SOURCED.get(previous) : undefined;
  const all = before && sameTools(before.sourced, sourced) ? before.all : withoutRepeats(sourced);
  let tools: readonly AnyTool[] = all;
  for (const filter of filters) tools = filter(scope, tools);
  if (previous && sameTools(previous.tools, tools)) return previous;
  const byName = new Map<string, AnyTool>();
  for (const tool of tools) byName.set(tool.name, tool);
  const pool = { tools, definitions: tools.map(cachedDefinition), byName };
  SOURCED.set(pool, { sourced, all });
  return pool;
}

/** What the sources gave for a pool, and that list with each name once. */
const SOURCED = new WeakMap<ToolPool, { sourced: readonly AnyTool[]; all: readonly AnyTool[] }>();

/** `tools` with the first tool of each name only, in order. */
function withoutRepeats(tools: readonly AnyTool[]): readonly AnyTool[] {
  // The few tools of most pools are compared by name as they come, and a set is made only for a
  // large pool (many MCP tools).
  const all: AnyTool[] = [];
  let names: Set<string> | undefined;
  for (const tool of tools) {
    if (names ? names.has(tool.name) : hasName(all, tool.name)) continue;
    all.push(tool);
    if (names) names.add(tool.name);
    else if (all.length === LARGE_POOL) names = new Set(all.map((t) => t.name));
  }
  return all;
}

/** Pools up to this size are deduplicated without a set. */
const LARGE_POOL = 32;

function hasName(tools: readonly AnyTool[], name: string): boolean {
  for (let i = 0; i < tools.length; i++) if ((tools[i] as AnyTool).name === name) return true;
  return false;
}

function sameTools(a: readonly AnyTool[], b: readonly AnyTool[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
