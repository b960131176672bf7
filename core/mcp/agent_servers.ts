import { isAbsolute, relative } from "../../events/posix_path.ts";
import type { AgentSpawned, McpServerEntry } from "../../events/event_types.ts";
import type { AgentDefinition } from "../agents/agent_definition.ts";
import { agentTypesOf } from "../agents/agent_set.ts";
import type { State } from "../state/state.ts";
import { expandServer, parseMcpServers, serverTarget } from "./mcp_config.ts";
import type { McpServers } from "./mcp_servers.ts";
import type { ConfiguredServer } from "./read_mcp_config.ts";

/**
 * Make `servers` (this process's, live only) what `agent` of `session` is to use, before its
 * round's servers are observed:
 * - a teammate's process, whose servers were not started when it opened, keeps the configured
 *   servers its definition names (`mcpServers`; all when it names none), adds the definition's
 *   inline servers, and starts them;
 * - a subagent of this process whose definition has inline servers gets them started (for it
 *   alone: `entry.agent`), and its round waits for their start (at most `MCP_TIMEOUT`).
 * An inline server of a definition in the workspace (`.claude/agents/`) runs code as `.mcp.json`'s
 * do: in a folder that is not trusted it is recorded as not started. Resolves once done.
 */
export async function prepareAgentServers(
  servers: McpServers,
  state: State,
  session: string,
  agent: string,
): Promise<void> {
  const spawn = state.sessions.byId[session]?.agents[agent]?.spawn ?? null;
  if (spawn?.teammate !== undefined && !servers.isStarted) {
    const inline = inlineServers(servers, state, session, spawn, undefined);
    servers.narrow(spawn.mcpServers, inline);
    servers.start();
    return;
  }
  if (spawn === null || spawn.mcpServers === undefined) return;
  const inline = inlineServers(servers, state, session, spawn, agent)
    .filter((server) => !servers.has(server.entry.name));
  if (inline.length > 0) await servers.add(inline);
}

/** The inline servers of `spawn`'s definition, checked and expanded as `.mcp.json`'s are. */
function inlineServers(
  servers: McpServers,
  state: State,
  session: string,
  spawn: AgentSpawned,
  forAgent: string | undefined,
): ConfiguredServer[] {
  const definition = agentTypesOf(state, session).find((type) => type.name === spawn.type);
  const inline = (definition?.mcpServers ?? []).filter((server) => server.config !== undefined);
  if (definition === undefined || inline.length === 0) return [];
  const file = definition.path ?? definition.name;
  const parsed = parseMcpServers(
    Object.fromEntries(inline.map((server) => [server.name, server.config])),
    "agent",
    file,
  );
  for (const problem of parsed.problems) servers.report(problem);
  const trusted = servers.setup.trusted !== false || !inProject(definition, servers.workspace);
  return parsed.servers.map((server): ConfiguredServer => {
    const { config, missing } = expandServer(server.config, (name) => servers.envOf(name));
    if (missing.length > 0) {
      servers.report(
        `MCP server "${server.name}" in "${file}": ${
          missing.map((name) => `\${${name}}`).join(", ")
        } not set, left as written`,
      );
    }
    const entry: McpServerEntry = {
      name: server.name,
      scope: "agent",
      transport: config.type,
      target: serverTarget(config),
      enabled: trusted,
      ...(trusted ? {} : { reason: "the folder is not trusted" }),
      ...(forAgent === undefined ? {} : { agent: forAgent }),
    };
    return { entry, config };
  });
}

/** Whether `definition` is the workspace's own (a repository's file, not the person's). */
function inProject(definition: AgentDefinition, workspace: string): boolean {
  if (definition.path === undefined) return false;
  const path = relative(workspace, definition.path);
  return path !== "" && !path.startsWith("..") && !isAbsolute(path);
}
