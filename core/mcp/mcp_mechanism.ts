import type { ReinEvent } from "../../events/event_types.ts";
import type { StageContext } from "../loop/stages.ts";
import type { Mechanism } from "../mechanism.ts";
import { prepareAgentServers } from "./agent_servers.ts";
import { mcpArrivals } from "./mcp_attach.ts";
import { mcpProjection } from "./mcp_projection.ts";
import { mcpProcessViewOf, mcpViewOf } from "./mcp_view.ts";
import { renderMcpEvent, reportMcp } from "./mcp_render.ts";
import type { McpServers } from "./mcp_servers.ts";
import {
  DEFAULT_MCP_LIMITS,
  type McpLimits,
  mcpToolSource,
  RESOURCE_TOOL_FACTS,
} from "./mcp_tools.ts";

/** What the MCP mechanism is wired with: the process's servers, live only. */
export interface McpOptions {
  workspace: string;
  /** The servers this process runs (absent in replay and where none is configured). */
  servers?: McpServers;
  limits?: McpLimits;
}

/**
 * MCP servers (s19) as Claude Code runs them: each configured server's tools join the pool as
 * `mcp__<server>__<tool>` (effects: replay serves their recorded results), with
 * list_mcp_resources and read_mcp_resource when a server has resources. Before each model
 * request the session's configuration (`mcp.configured`, once, or again when it changed) and each
 * server's state when it changed (`mcp.observed`: connected with its tool list, pending, failed)
 * are observed from the live servers and recorded; the first request waits for the servers'
 * start (up to `MCP_TIMEOUT`). The pool is folded from those events, so replay and `--verify`
 * never start or contact a server. The servers are closed with the harness.
 */
export function mcpMechanism(options: McpOptions): Mechanism {
  return {
    name: "mcp",
    feature: "mcp",
    // Recorded from outside the loop (before the prompt): replay feeds it at its place.
    fedTypes: ["mcp.attached"],
    projection: mcpProjection,
    toolFacts: RESOURCE_TOOL_FACTS,
    tools: mcpToolSource({
      servers: () => options.servers,
      workspace: options.workspace,
      limits: options.limits ?? DEFAULT_MCP_LIMITS,
    }),
    // `@server:uri` attached to a prompt: after the prompt, in its user message.
    arrivals: mcpArrivals,
    render: renderMcpEvent,
    report: (state, context) => reportMcp(state, context),
    stages: {
      beforeModel: (context) => observeServers(context, options.servers),
    },
    close: () => options.servers?.close() ?? Promise.resolve(),
  };
}

/**
 * The configuration, when the session has not recorded this one, and the servers whose state the
 * session has not recorded yet: read live (after waiting for the servers' start), served from
 * the log in replay.
 */
async function observeServers(
  context: StageContext,
  servers: McpServers | undefined,
): Promise<ReinEvent[]> {
  const events: ReinEvent[] = [];
  const configured = await context.observeMaybe("mcp.configured", () => true, async () => {
    if (!servers) return undefined;
    // A teammate's process starts the servers its definition names; a subagent's inline ones.
    await prepareAgentServers(servers, context.view(), context.session, context.agent);
    const view = mcpProcessViewOf(context.view(), context.session, context.agent);
    const entries = servers.setup.servers.map((s) => s.entry);
    // A teammate's process with no server records so once, where the lead's record would
    // otherwise stand for it (see mcpViewOf).
    const shown = mcpViewOf(context.view(), context.session, context.agent);
    if (entries.length === 0 && view === undefined && shown === undefined) return undefined;
    if (view && JSON.stringify(view.configured) === JSON.stringify(entries)) return undefined;
    const problems = servers.setup.problems;
    return { servers: entries, ...(problems.length > 0 ? { problems: [...problems] } : {}) };
  });
  if (configured) events.push({ type: "mcp.configured", data: configured });
  const observed = await context.observeMaybe("mcp.observed", () => true, async () => {
    if (!servers?.any) return undefined;
    await servers.started();
    await servers.refreshed();
    // Compared with what the log says (not with what this process last read), so a reading that
    // was never recorded (a cancelled round) is read again.
    const known = mcpProcessViewOf(context.view(), context.session, context.agent)?.servers ?? {};
    const changed = servers.states().filter((state) => {
      const before = known[state.name];
      return before === undefined || JSON.stringify(before) !== JSON.stringify(state);
    });
    return changed.length > 0 ? { servers: changed } : undefined;
  });
  if (observed) events.push({ type: "mcp.observed", data: observed });
  return events;
}
