import { sliceOf, type State } from "../state/state.ts";
import { mcpProjection, type McpSessionView } from "./mcp_projection.ts";

/**
 * The MCP view `agent` of `session` sees (absent agent: the lead's): its teammate's own process's
 * when it is a teammate or one of a teammate's subagents and that process recorded one, else the
 * lead's (a teammate recorded before agents had servers of their own recorded none: its pool had
 * the lead's tools, and replays so). Undefined when there is none. Pure.
 */
export function mcpViewOf(
  state: State,
  session: string,
  agent?: string,
): McpSessionView | undefined {
  if (!("mcp" in state.extensions)) return undefined;
  const entry = sliceOf(state, mcpProjection)[session];
  const teammate = agent === undefined ? undefined : entry?.processOf?.[agent];
  return (teammate === undefined ? undefined : entry?.teammates?.[teammate]) ?? entry?.lead;
}

/**
 * What the process `agent` of `session` runs in recorded itself (a teammate's process: its own
 * record only, never the lead's); what its servers' readings are compared with. Pure.
 */
export function mcpProcessViewOf(
  state: State,
  session: string,
  agent: string,
): McpSessionView | undefined {
  if (!("mcp" in state.extensions)) return undefined;
  const entry = sliceOf(state, mcpProjection)[session];
  const teammate = entry?.processOf?.[agent];
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
