import type { McpServerEntry } from "../../events/event_types.ts";
import type { McpLiveStatus } from "./mcp_servers.ts";

/** A server's status now, as {@link McpServers.statuses} gives it. */
export interface McpStatusLine {
  name: string;
  status: McpLiveStatus;
  reason?: string;
  tools: number;
}

/**
 * What `/mcp` shows: each configured server with its scope and how it is reached, and its state
 * (starting, connected with N tools, pending or failed with the reason, disabled and why). Pure.
 */
export function mcpReport(
  entries: readonly McpServerEntry[],
  statuses: readonly McpStatusLine[],
): string {
  if (entries.length === 0) {
    return "No MCP servers: add them to .mcp.json (trusted folders), ~/.claude.json or " +
      "--mcp-config";
  }
  const lines = entries.map((entry) => {
    const live = statuses.find((status) => status.name === entry.name);
    const state = describe(live, entry);
    return `  ${entry.name} (${entry.scope}, ${entry.transport}: ${entry.target})\n    ${state}`;
  });
  return ["MCP servers", ...lines].join("\n");
}

function describe(live: McpStatusLine | undefined, entry: McpServerEntry): string {
  if (!entry.enabled) return `disabled: ${entry.reason ?? ""}`;
  if (live === undefined) return "not running in this process";
  if (live.status === "connected") {
    const tools = `${live.tools} tool${live.tools === 1 ? "" : "s"}`;
    return `connected, ${tools}${live.reason ? ` (${live.reason})` : ""}`;
  }
  return `${live.status}${live.reason ? `: ${live.reason}` : ""}`;
}
