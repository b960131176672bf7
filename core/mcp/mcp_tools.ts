import { keepWhole } from "./_keep_whole.ts";
import type { McpToolEntry } from "../../events/event_types.ts";
import type { AnyTool, ToolCallContext, ToolFacts, ToolResult } from "../tools/tool.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import { addToolFacts } from "../tools/tool_names.ts";
import type { McpCallResult, McpContentBlock } from "./mcp_connection_types.ts";
import { mcpToolName } from "./mcp_names.ts";
import { mcpServerVisible, mcpViewOf } from "./mcp_view.ts";
import type { McpServers } from "./mcp_servers.ts";
import { mcpResultContent } from "./mcp_result.ts";
import { limitMcpBlocks, mcpTextToSpill } from "./mcp_output_limit.ts";

/** The limits of MCP calls (Claude Code's environment variables). */
export interface McpLimits {
  /** `MCP_TOOL_TIMEOUT`, ms (a server's own `timeout` wins). */
  toolTimeoutMs: number;
  /** `MAX_MCP_OUTPUT_TOKENS`: a longer result is kept in a file and the model gets a preview. */
  maxOutputTokens: number;
}

/** Claude Code's defaults: a call may take about a day, and its output 25,000 tokens. */
export const DEFAULT_MCP_LIMITS: McpLimits = {
  toolTimeoutMs: 100_000_000,
  maxOutputTokens: 25_000,
};

/** The limits as the environment sets them. */
export function mcpLimits(env: (name: string) => string | undefined): McpLimits {
  const number = (name: string, fallback: number, min: number) => {
    const value = Number(env(name));
    return Number.isFinite(value) && value >= min ? value : fallback;
  };
  return {
    toolTimeoutMs: Math.min(
      number("MCP_TOOL_TIMEOUT", DEFAULT_MCP_LIMITS.toolTimeoutMs, 1000),
      2 ** 31 - 1,
    ),
    maxOutputTokens: number("MAX_MCP_OUTPUT_TOKENS", DEFAULT_MCP_LIMITS.maxOutputTokens, 1),
  };
}

/** What the MCP tools run on: the process's servers (absent in replay) and the workspace. */
export interface McpToolDeps {
  servers: () => McpServers | undefined;
  workspace: string;
  limits: McpLimits;
}

/** The names of list_mcp_resources and read_mcp_resource as Claude Code and rules know them. */
export const RESOURCE_TOOL_FACTS: readonly ToolFacts[] = [
  {
    name: "list_mcp_resources",
    claudeNames: ["ListMcpResourcesTool", "ListMcpResources"],
    permission: "read-only",
  },
  {
    name: "read_mcp_resource",
    claudeNames: ["ReadMcpResourceTool", "ReadMcpResource"],
    permission: "read-only",
  },
];

/**
 * The MCP tools of `scope`'s session, from what its log recorded of each connected server (so
 * replay has the same pool): `mcp__<server>__<tool>` for each listed tool, and the resource
 * tools when a server offers resources. Each tool object is made once per recorded entry.
 */
export function mcpToolSource(deps: McpToolDeps): (scope: PoolScope) => readonly AnyTool[] {
  const made = new WeakMap<McpToolEntry, AnyTool>();
  const resourceTools = makeResourceTools(deps);
  return (scope) => {
    // The servers of the agent's own process (a teammate's are its own), those it may use.
    const view = mcpViewOf(scope.state, scope.session, scope.agent);
    if (view === undefined) return [];
    const tools: AnyTool[] = [];
    const fresh: AnyTool[] = [];
    let resources = false;
    for (const server of Object.values(view.servers)) {
      if (server.status !== "connected") continue;
      if (!mcpServerVisible(scope.state, scope.session, scope.agent, view, server.name)) continue;
      if (server.resources) resources = true;
      for (const entry of server.tools ?? []) {
        let tool = made.get(entry);
        if (!tool) {
          made.set(entry, tool = makeTool(deps, server.name, entry));
          fresh.push(tool);
        }
        tools.push(tool);
      }
    }
    // The permission rules and hooks judge a call by its tool's facts (a read-only tool runs
    // without asking): known from the recorded list, so replay judges as the run did.
    if (fresh.length > 0) {
      addToolFacts(
        fresh.map((tool) => ({ name: tool.name, permission: tool.permission ?? "other" })),
      );
    }
    return resources ? [...tools, ...resourceTools] : tools;
  };
}

function makeTool(deps: McpToolDeps, server: string, entry: McpToolEntry): AnyTool {
  const name = mcpToolName(server, entry.name);
  return {
    name,
    description: entry.description === ""
      ? `${entry.name} (MCP server ${server})`
      : entry.description,
    inputSchema: entry.inputSchema,
    kind: "effect",
    readOnly: entry.readOnly === true,
    permission: entry.readOnly === true ? "read-only" : "other",
    summarize: (input: unknown) => summary(input),
    async run(input: Record<string, unknown>, context: ToolCallContext): Promise<ToolResult> {
      const servers = deps.servers();
      const connection = await servers?.ready(server, context.signal);
      if (!servers || !connection) {
        return {
          content: `Cannot call ${name}: ${
            servers?.whyNot(server) ?? "MCP servers do not run here"
          }`,
          isError: true,
        };
      }
      // The server's own `timeout` (ms) wins over MCP_TOOL_TIMEOUT, as in Claude Code.
      const timeoutMs = servers.timeoutOf(server) ?? deps.limits.toolTimeoutMs;
      try {
        const result = await connection.callTool(entry.name, input ?? {}, {
          signal: context.signal,
          timeoutMs,
        });
        return await resultFor(result, name, server, context, deps);
      } catch (error) {
        if (context.signal.aborted) {
          return { content: `The call to ${name} was cancelled`, isError: true, cancelled: true };
        }
        return { content: failure(name, server, error, timeoutMs, connection), isError: true };
      }
    },
  };
}

function failure(
  name: string,
  server: string,
  error: unknown,
  timeoutMs: number,
  connection: { stderr(): string },
): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/-32001|timed out/i.test(message)) {
    return `${name} timed out after ${timeoutMs} ms (MCP_TOOL_TIMEOUT, or the server's timeout)`;
  }
  if (/connection closed/i.test(message)) {
    const said = connection.stderr().trim().split("\n").at(-1) ?? "";
    return `MCP server "${server}" closed the connection during the call${
      said === "" ? "" : ` (${said.slice(0, 300)})`
    }; it is restarted once`;
  }
  return `${name} failed: ${message}`;
}

/**
 * What the model reads of a result (`mcpResultContent`): text alone as a string, anything more
 * as content blocks (images as image blocks). Over `MAX_MCP_OUTPUT_TOKENS` (about four characters
 * a token, an image 1,600) the whole text is kept in a file of the workspace and the model gets
 * its beginning and the file's path, and the images that still fit.
 */
async function resultFor(
  result: McpCallResult,
  name: string,
  server: string,
  context: ToolCallContext,
  deps: McpToolDeps,
): Promise<ToolResult> {
  const converted = mcpResultContent(result.content ?? [], server, result.structuredContent);
  const isError = result.isError === true ? { isError: true } : {};
  const max = deps.limits.maxOutputTokens;
  if (converted.blocks) {
    const whole = mcpTextToSpill(converted.blocks, max);
    const kept = whole === undefined ? "" : await keep(whole, context.callId, deps);
    const limited = limitMcpBlocks(converted.blocks, name, max, kept);
    return { content: limited.text, blocks: limited.blocks ?? [], ...isError };
  }
  const text = converted.text;
  const limit = max * 4;
  if (text.length <= limit) return { content: text, ...isError };
  const path = spillPath(context.callId);
  const error = await keepWhole(deps.workspace, path, text);
  if (error !== undefined) {
    return {
      content: `${text.slice(0, 2_000)}\n\n[${name} answered ${text.length} characters, over ` +
        `MAX_MCP_OUTPUT_TOKENS (${deps.limits.maxOutputTokens}); the rest could not be kept: ${error}]`,
      ...isError,
    };
  }
  return {
    content: `${text.slice(0, 2_000)}\n\n[${name} answered ${text.length} characters, over ` +
      `MAX_MCP_OUTPUT_TOKENS (${deps.limits.maxOutputTokens} tokens). The whole answer is in ` +
      `${path}: read it with read_file (offset and limit) or search it with grep.]`,
    ...isError,
  };
}

/** Keep a result's whole text in the workspace; the sentence telling the model where it is. */
async function keep(text: string, callId: string, deps: McpToolDeps): Promise<string> {
  const path = spillPath(callId);
  const error = await keepWhole(deps.workspace, path, text);
  if (error !== undefined) return `The rest of the text could not be kept: ${error}`;
  return `The whole text is in ${path}: read it with read_file (offset and limit) or search ` +
    "it with grep.";
}

/** One content block as text for the model. */
export function describeBlock(block: McpContentBlock): string {
  if (typeof block.text === "string" && (block.type === "text" || block.type === undefined)) {
    return block.text;
  }
  if (block.type === "image" || block.type === "audio") {
    return `[${block.type}: ${block.mimeType ?? "unknown type"}, ${bytes(block.data)} bytes]`;
  }
  if (block.type === "resource" && block.resource) return describeResource(block.resource);
  if (block.type === "resource_link") {
    return `[resource link: ${block.uri ?? ""}${block.name ? ` (${block.name})` : ""}]`;
  }
  if (block.uri !== undefined) return describeResource(block);
  return JSON.stringify(block);
}

function describeResource(resource: McpContentBlock): string {
  if (typeof resource.text === "string") return resource.text;
  return `[resource ${resource.uri ?? ""}: ${resource.mimeType ?? "binary"}, ${
    bytes(resource.blob)
  } bytes]`;
}

/** Where a result too long for the model is kept, relative to the workspace (as other spills). */
function spillPath(callId: string): string {
  return `.rein/outputs/${callId.replace(/[^A-Za-z0-9_-]/g, "_")}.txt`;
}

function bytes(base64: string | undefined): number {
  return base64 === undefined ? 0 : Math.floor((base64.length * 3) / 4);
}

function summary(input: unknown): string {
  const text = JSON.stringify(input ?? {});
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function makeResourceTools(deps: McpToolDeps): AnyTool[] {
  const [listFacts, readFacts] = RESOURCE_TOOL_FACTS as [ToolFacts, ToolFacts];
  const list: AnyTool = {
    ...listFacts,
    description:
      "List the resources of the connected MCP servers (of one server, given its name). " +
      "Each has a uri, a name, a mimeType and a description; read one with read_mcp_resource.",
    inputSchema: {
      type: "object",
      properties: { server: { type: "string", description: "Only this server's resources" } },
      additionalProperties: false,
    },
    kind: "effect",
    readOnly: true,
    summarize: (input: { server?: string }) => input.server ?? "all servers",
    async run(input: { server?: string }, context: ToolCallContext): Promise<ToolResult> {
      const servers = deps.servers();
      if (!servers) return { content: "MCP servers do not run here", isError: true };
      const visible = visibleTo(context);
      if (input.server !== undefined && !visible(input.server)) {
        return { content: notVisible(input.server), isError: true };
      }
      const names = input.server === undefined
        ? servers.statuses().filter((s) => s.status === "connected" && visible(s.name))
          .map((s) => s.name)
        : [input.server];
      const listed: Record<string, unknown>[] = [];
      for (const name of names) {
        const connection = servers.connection(name);
        if (!connection) return { content: servers.whyNot(name), isError: true };
        if (!connection.resources) continue;
        try {
          for (const r of await connection.listResources(context.signal)) {
            listed.push({ ...r, server: name });
          }
        } catch (error) {
          return { content: `Cannot list the resources of "${name}": ${error}`, isError: true };
        }
      }
      return { content: JSON.stringify(listed, null, 2) };
    },
  };
  const read: AnyTool = {
    ...readFacts,
    description: "Read a resource of an MCP server by its uri (list them with list_mcp_resources).",
    inputSchema: {
      type: "object",
      properties: {
        server: { type: "string", description: "The server's name" },
        uri: { type: "string", description: "The resource's uri" },
      },
      required: ["server", "uri"],
      additionalProperties: false,
    },
    kind: "effect",
    readOnly: true,
    summarize: (input: { server: string; uri: string }) => `${input.server} ${input.uri}`,
    async run(input: { server: string; uri: string }, context: ToolCallContext) {
      if (!visibleTo(context)(input.server)) {
        return { content: notVisible(input.server), isError: true };
      }
      const connection = deps.servers()?.connection(input.server);
      if (!connection) {
        return {
          content: deps.servers()?.whyNot(input.server) ?? "MCP servers do not run here",
          isError: true,
        };
      }
      try {
        const contents = await connection.readResource(input.uri, context.signal);
        return await resultFor(
          { content: contents },
          "read_mcp_resource",
          input.server,
          context,
          deps,
        );
      } catch (error) {
        return {
          content: `Cannot read ${input.uri} of "${input.server}": ${error}`,
          isError: true,
        };
      }
    },
  };
  return [list, read];
}

/** Which servers the calling agent may use (see {@link mcpServerVisible}). */
function visibleTo(context: ToolCallContext): (server: string) => boolean {
  const state = context.view();
  const view = mcpViewOf(state, context.session, context.agent);
  return (server) =>
    view !== undefined && mcpServerVisible(state, context.session, context.agent, view, server);
}

function notVisible(server: string): string {
  return `MCP server "${server}" is not one of your servers (your agent definition's mcpServers)`;
}
