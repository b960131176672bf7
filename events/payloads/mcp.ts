import type { EventTable } from "./_payload.ts";

/** Where an MCP server's entry was read, as Claude Code names its scopes. */
export type McpScope = "local" | "project" | "user" | "dynamic" | "agent";

/** How rein reaches an MCP server. */
export type McpTransport = "stdio" | "http" | "sse";

/**
 * One configured MCP server as a session knows it: what it is and whether it runs. Secrets stay
 * out of the log: a stdio server's `env` and a remote server's `headers` are not recorded.
 */
export interface McpServerEntry {
  name: string;
  scope: McpScope;
  transport: McpTransport;
  /** The command line (`npx -y server`) or the URL, as expanded. */
  target: string;
  /** False: configured but kept from starting (`disabledMcpjsonServers`, an untrusted folder). */
  enabled: boolean;
  /** Why it does not run, when it does not. */
  reason?: string;
  /**
   * An agent definition's inline server started for one subagent of this process: the agent it
   * was started for (only agents whose definition names it see its tools).
   */
  agent?: string;
}

/**
 * The MCP servers a session has, read when it started (or resumed with another configuration):
 * what shapes its tool pool, so replay reads it from here and never from the files.
 */
export interface McpConfigured {
  servers: McpServerEntry[];
  /** Entries that could not be read (file and server named), each left out. */
  problems?: string[];
}

/** One tool an MCP server lists, as it described it (its JSON Schema kept whole). */
export interface McpToolEntry {
  /** The server's name for it (`get-sum`); rein's is `mcp__<server>__<tool>`, normalised. */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The server's `readOnlyHint`: the tool changes nothing, so it asks no one. */
  readOnly?: boolean;
}

/** One prompt an MCP server lists: a slash command `/mcp__<server>__<prompt>`. */
export interface McpPromptEntry {
  name: string;
  description?: string;
  /** Its arguments in order (a slash command's words fill them in this order). */
  arguments?: { name: string; required?: boolean }[];
}

/**
 * What a server is now: `connected` with its tools (and prompts, whether it has resources),
 * `pending` (not up when the first request could wait no longer: its tools join when it is),
 * or `failed` with the reason.
 */
export interface McpServerState {
  name: string;
  status: "connected" | "pending" | "failed";
  /** Why it failed or is pending; for a connected server, why it was restarted, if it was. */
  reason?: string;
  tools?: McpToolEntry[];
  prompts?: McpPromptEntry[];
  /** Whether the server offers resources (list_mcp_resources and read_mcp_resource ask it). */
  resources?: boolean;
  /** The server's instructions for the model, if it gave any. */
  instructions?: string;
}

/**
 * Servers whose state changed since the session last heard (started, failed, restarted, a list
 * changed), observed before a model request: the tool pool of the next request is folded from it.
 */
export interface McpObserved {
  servers: McpServerState[];
}

/**
 * A resource the person attached to a prompt (`@server:uri`), read from its server before the
 * prompt: the agent's next request has `text` after the prompt (an arrival, source `mcp`).
 */
export interface McpAttached {
  server: string;
  uri: string;
  /** What the model reads of it (Claude Code's attachment text, or a preview when spilled). */
  text: string;
  /** Where the whole text was kept, relative to the workspace, when it was too long. */
  spilled?: string;
}

/** MCP servers (s19): their configuration and what they offer, as each session saw them. */
export interface McpEvents {
  "mcp.configured": McpConfigured;
  "mcp.observed": McpObserved;
  "mcp.attached": McpAttached;
}

/** The event types of McpEvents, for validation on read. */
export const MCP_EVENTS: EventTable<McpEvents> = {
  "mcp.configured": true,
  "mcp.observed": true,
  "mcp.attached": true,
};
