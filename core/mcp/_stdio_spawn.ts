import { spawnInOwnSession } from "../tools/own_session_command.ts";
import type { McpStdioConfig } from "./mcp_config.ts";

/**
 * Start a stdio server's process as {@link GroupStdioTransport} does (its own session and process
 * group, the environment given and its entry's `env`, pipes), without the MCP SDK: the server
 * starts while the SDK loads, and the transport takes it over. Throws as the spawn does.
 */
export function spawnStdioServer(
  config: McpStdioConfig,
  cwd: string,
  env: Record<string, string>,
): Deno.ChildProcess {
  return spawnInOwnSession(config.command, {
    args: config.args,
    env: { ...env, ...config.env },
    clearEnv: true,
    cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
}
