import { sliceOf, type State } from "../state/state.ts";
import { mcpProjection, type McpSessionView } from "./mcp_projection.ts";

/** `session`'s MCP view, or undefined when it has none. Pure. */
export function mcpViewOf(state: State, session: string): McpSessionView | undefined {
  if (!("mcp" in state.extensions)) return undefined;
  return sliceOf(state, mcpProjection)[session];
}
