/**
 * MCP (s19): servers configured as Claude Code configures them (`.mcp.json`, `~/.claude.json`,
 * `--mcp-config`), started live, their tools recorded and served from the log in replay.
 *
 * @module
 */
export { mcpMechanism, type McpOptions } from "./mcp_mechanism.ts";
export {
  type McpLiveStatus,
  McpServers,
  mcpServersOf,
  type McpServersOptions,
} from "./mcp_servers.ts";
export {
  type ConfiguredServer,
  type McpFiles,
  type McpSetup,
  mcpSetup,
  readMcpConfig,
  readMcpFiles,
} from "./read_mcp_config.ts";
export { DEFAULT_MCP_LIMITS, type McpLimits, mcpLimits } from "./mcp_tools.ts";
export { mcpProjection, type McpSessionView } from "./mcp_projection.ts";
export { mcpViewOf } from "./mcp_view.ts";
export { mcpReport } from "./mcp_report.ts";
export { mcpToolName, normalizeMcpName } from "./mcp_names.ts";
export { expandMcpPrompt, findMcpPrompt, type McpPromptOutcome } from "./mcp_prompt.ts";
export { mcpApprovals, rememberMcpChoice, unapprovedServers } from "./mcp_approvals.ts";
export { attachMcpResources, resourceMentions } from "./mcp_attach.ts";
