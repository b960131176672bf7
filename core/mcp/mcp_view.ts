import { sliceOf, type State } from "../state/state.ts";
import { mcpProjection, type McpSessionView } from "./mcp_projection.ts";

/**
 * The MCP view of the process `agent` of `session` runs in (absent agent: the lead's): its
 * teammate's own process's when it is a teammate or one of a teammate's subagents, else the
 * lead's. Undefined when that process recorded none. Pure.
 */
export function mcpViewOf(
  state: State,
  session: string,
  agent?: string,
): McpSessionView | undefined {
  if (!("mcp" in state.extensions)) return undefined;
  const entry = sliceOf(state, mcpProjection)[session];
  const teammate = agent === undefined ? undefined : entry?.processOf?.[agent];
  return teammate === undefined ? entry?.lead : entry?.teammates?.[teammate];
}

/**
 * Whether `agent` of `session` may use MCP server `server` of its process (`view`): one its
 * `agent.spawned` names (`mcpServers`), or, when it names none, any of its process's but an
 * inline server started for another agent's definition. Pure.
 */
export function mcpServerVisible(
  state: State,
  session: string,
  agent: string,
  view: McpSessionView,
  server: string,
): boolean {
  const named = state.sessions.byId[session]?.agents[agent]?.spawn?.mcpServers;
  if (named !== undefined) return named.includes(server);
  const entry = view.configured.find((configured) => configured.name === server);
  return entry?.agent === undefined;
}
