import { describeBlock } from "./mcp_tools.ts";
import { normalizeMcpName } from "./mcp_names.ts";
import type { McpServerState } from "../../events/event_types.ts";
import type { McpServers } from "./mcp_servers.ts";

/** What `/mcp__<server>__<prompt> args` became: the prompt's text, or why not. */
export type McpPromptOutcome =
  | { kind: "prompt"; prompt: string }
  | { kind: "error"; message: string };

/**
 * Whether `name` (without the slash) names a prompt of a connected server (of `states`):
 * `mcp__<server>__<prompt>`, both normalised as tool names are. Pure.
 */
export function findMcpPrompt(
  states: readonly McpServerState[],
  name: string,
):
  | { server: string; prompt: string; arguments: { name: string; required?: boolean }[] }
  | undefined {
  if (!name.startsWith("mcp__")) return undefined;
  for (const state of states) {
    if (state.status !== "connected") continue;
    const prefix = `mcp__${normalizeMcpName(state.name)}__`;
    if (!name.startsWith(prefix)) continue;
    const wanted = name.slice(prefix.length);
    const prompt = state.prompts?.find((p) => normalizeMcpName(p.name) === wanted);
    if (prompt) {
      return { server: state.name, prompt: prompt.name, arguments: prompt.arguments ?? [] };
    }
  }
  return undefined;
}

/**
 * The text of an MCP prompt got live from its server, as Claude Code runs `/mcp__s__p a b`: the
 * words fill the prompt's declared arguments in order (the last one takes the rest); its
 * messages' text, joined, is the prompt to run (recorded as the person's prompt, so replay reads
 * it from the log).
 */
export async function expandMcpPrompt(
  servers: McpServers,
  found: NonNullable<ReturnType<typeof findMcpPrompt>>,
  args: string,
  signal: AbortSignal,
): Promise<McpPromptOutcome> {
  const words = args.trim() === "" ? [] : args.trim().split(/\s+/);
  const values: Record<string, string> = {};
  found.arguments.forEach((argument, index) => {
    const last = index === found.arguments.length - 1;
    const value = last ? words.slice(index).join(" ") : words[index];
    if (value !== undefined && value !== "") values[argument.name] = value;
  });
  const missing = found.arguments.filter((a) => a.required && values[a.name] === undefined);
  if (missing.length > 0) {
    return {
      kind: "error",
      message: `The MCP prompt ${found.prompt} of "${found.server}" needs ${
        missing.map((a) => a.name).join(", ")
      }`,
    };
  }
  const connection = await servers.ready(found.server, signal);
  if (!connection) return { kind: "error", message: servers.whyNot(found.server) };
  try {
    const messages = await connection.getPrompt(found.prompt, values, signal);
    return { kind: "prompt", prompt: messages.map((m) => describeBlock(m.content)).join("\n\n") };
  } catch (error) {
    return {
      kind: "error",
      message: `The MCP prompt ${found.prompt} of "${found.server}" failed: ${
        error instanceof Error ? error.message : String(error)
      }`,
    };
  }
}
