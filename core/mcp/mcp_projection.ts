import type { Envelope, McpServerEntry, McpServerState } from "../../events/event_types.ts";
import type { Projection } from "../state/projection.ts";

/** The `source` of the arrivals an attached resource is put before the model as. */
export const MCP_ATTACH_SOURCE = "mcp";

/**
 * The MCP servers of one process of a session (the lead's, or a teammate's) as its log tells:
 * configured, and what each offered when last heard.
 */
export interface McpSessionView {
  configured: McpServerEntry[];
  problems: string[];
  /** Each server's last observed state, by name (absent: not heard of since it was configured). */
  servers: Record<string, McpServerState>;
}

/** One session's MCP servers: its lead's process's, and each teammate's process's. */
export interface McpSessionEntry {
  /** The lead's process's servers (its subagents' too); absent until it recorded any. */
  lead?: McpSessionView;
  /** Each teammate's own process's servers, by the teammate's name. */
  teammates?: Record<string, McpSessionView>;
  /** The teammate whose process each agent runs in (a teammate, its subagents); absent: the lead's. */
  processOf?: Record<string, string>;
  /** Resources attached to a prompt (`mcp.attached`) not yet put before the model, by agent. */
  attached?: Record<string, McpAttachment[]>;
}

/** A resource attached to a prompt, waiting for the agent's next request. */
export interface McpAttachment {
  /** Its arrival's key: the seq of its `mcp.attached`, as text. */
  key: string;
  seq: number;
  text: string;
}

/** MCP entries by session id. */
export type McpSlice = Record<string, McpSessionEntry>;

/**
 * The MCP servers of each session, by process: an event of a teammate (or of a subagent it
 * started, as `agent.spawned` tells) is its process's, any other the lead's. `mcp.configured`
 * sets what is configured (a new configuration forgets what was heard of servers no longer in
 * it), `mcp.observed` replaces the state of each server it names. A fork starts without servers
 * (its process reads its own). A resource attached to a prompt (`mcp.attached`) waits for the
 * agent's next request until its `arrival.injected` (source `mcp`). Pure.
 */
export const mcpProjection: Projection<McpSlice> = {
  key: "mcp",
  canHandle: [
    "mcp.configured",
    "mcp.observed",
    "agent.spawned",
    "mcp.attached",
    "arrival.injected",
  ],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    if (event.type === "mcp.attached") {
      const entry = slice[event.session] ??= {};
      const waiting = (entry.attached ??= {})[event.agent] ??= [];
      waiting.push({ key: String(event.seq), seq: event.seq, text: event.data.text });
      return slice;
    }
    if (event.type === "arrival.injected") {
      if (event.data.source !== MCP_ATTACH_SOURCE) return slice;
      const attached = slice[event.session]?.attached;
      const waiting = attached?.[event.agent]?.filter((a) => a.key !== event.data.key);
      if (attached === undefined || waiting === undefined) return slice;
      if (waiting.length > 0) attached[event.agent] = waiting;
      else delete attached[event.agent];
      return slice;
    }
    if (event.type === "agent.spawned") {
      const owner = event.data.teammate !== undefined
        ? event.agent
        : slice[event.session]?.processOf?.[event.data.parent];
      if (owner !== undefined) {
        const entry = slice[event.session] ??= {};
        (entry.processOf ??= {})[event.agent] = owner;
      }
      return slice;
    }
    if (event.type !== "mcp.configured" && event.type !== "mcp.observed") return slice;
    const entry = slice[event.session] ??= {};
    const teammate = entry.processOf?.[event.agent];
    const place = (view: McpSessionView) => {
      if (teammate === undefined) entry.lead = view;
      else (entry.teammates ??= {})[teammate] = view;
    };
    const before = teammate === undefined ? entry.lead : entry.teammates?.[teammate];
    if (event.type === "mcp.configured") {
      const names = new Set(event.data.servers.filter((s) => s.enabled).map((s) => s.name));
      const servers: Record<string, McpServerState> = {};
      for (const [name, state] of Object.entries(before?.servers ?? {})) {
        if (names.has(name)) servers[name] = state;
      }
      place({ configured: event.data.servers, problems: event.data.problems ?? [], servers });
      return slice;
    }
    const view = before ?? { configured: [], problems: [], servers: {} };
    for (const state of event.data.servers) view.servers[state.name] = state;
    place(view);
    return slice;
  },
};
