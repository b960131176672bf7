/** A server's or a tool's name as Claude Code puts it in a tool name: `[^A-Za-z0-9_-]` → `_`. */
export function normalizeMcpName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/** The name the model calls an MCP server's tool by: `mcp__<server>__<tool>`, normalised. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeMcpName(server)}__${normalizeMcpName(tool)}`;
}
