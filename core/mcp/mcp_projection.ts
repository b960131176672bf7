import type { Envelope, McpServerEntry, McpServerState } from "../../events/event_types.ts";
import type { Projection } from "../state/projection.ts";

/** A session's MCP servers as its log tells: configured, and what each offered when last heard. */
export interface McpSessionView {
  configured: McpServerEntry[];
  problems: string[];
  /** Each server's last observed state, by name (absent: not heard of since it was configured). */
  servers: Record<string, McpServerState>;
}

/** MCP views by session id. */
export type McpSlice = Record<string, McpSessionView>;

/**
 * The MCP servers of each session: `mcp.configured` sets what is configured (a new configuration
 * forgets what was heard of servers no longer in it), `mcp.observed` replaces the state of each
 * server it names. A fork starts without servers (its process reads its own). Pure.
 */
export const mcpProjection: Projection<McpSlice> = {
  key: "mcp",
  canHandle: ["mcp.configured", "mcp.observed"],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    if (event.type === "mcp.configured") {
      const before = slice[event.session];
      const names = new Set(event.data.servers.filter((s) => s.enabled).map((s) => s.name));
      const servers: Record<string, McpServerState> = {};
      for (const [name, state] of Object.entries(before?.servers ?? {})) {
        if (names.has(name)) servers[name] = state;
      }
      slice[event.session] = {
        configured: event.data.servers,
        problems: event.data.problems ?? [],
        servers,
      };
      return slice;
    }
    if (event.type === "mcp.observed") {
      const view = slice[event.session] ??= { configured: [], problems: [], servers: {} };
      for (const state of event.data.servers) view.servers[state.name] = state;
    }
    return slice;
  },
};
