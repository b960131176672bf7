/**
 * One live connection to an MCP server through the SDK's client. Loaded only when a server is
 * configured (a dynamic import from mcp_servers.ts): a run without MCP servers never loads the
 * SDK.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { McpPromptEntry, McpToolEntry } from "../../events/event_types.ts";
import type { McpServerConfig } from "./mcp_config.ts";
import { GroupStdioTransport } from "./_group_stdio_transport.ts";
import type {
  McpCallResult,
  McpConnection,
  McpContentBlock,
  McpPromptMessage,
  McpResourceEntry,
} from "./mcp_connection_types.ts";

/** What a connection is opened with. */
export interface ConnectOptions {
  cwd: string;
  /** The environment a stdio server starts with (its entry's `env` is added over it). */
  env: Record<string, string>;
  /** Called when the server's tool list changed (`notifications/tools/list_changed`). */
  onToolsChanged: () => void;
  /** Called once when the connection ends without rein closing it, with what the server said. */
  onLost: (reason: string) => void;
  /** Aborted when rein closes: a server still starting is stopped (its process group killed). */
  signal: AbortSignal;
  /** A stdio server's process, started already (see `spawnStdioServer`). */
  child?: Deno.ChildProcess;
}

/** The longest a request other than a tool call may take. */
const REQUEST_TIMEOUT_MS = 60_000;

/** Open a connection: start (or reach) the server, initialize, and list what it offers. */
export async function connectMcp(
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<McpConnection> {
  const transport = await makeTransport(config, options);
  const client = new Client({ name: "rein", version: "0.1.0" }, { capabilities: {} });
  let closing = false;
  const stderr = () => transport instanceof GroupStdioTransport ? transport.stderr : "";
  client.onclose = () => {
    if (!closing) options.onLost(lostReason(stderr()));
  };
  const stop = () => {
    closing = true;
    transport.close().catch(() => {});
  };
  options.signal.addEventListener("abort", stop, { once: true });
  try {
    if (options.signal.aborted) throw new Error("rein is closing");
    await client.connect(transport);
  } catch (error) {
    closing = true;
    await client.close().catch(() => {});
    // A server process started before the client loaded is stopped even if never connected.
    await transport.close().catch(() => {});
    const said = stderr();
    throw new Error(`${messageOf(error)}${said === "" ? "" : `: ${lastLine(said)}`}`);
  }
  const capabilities = client.getServerCapabilities() ?? {};
  const tools = capabilities.tools ? await listTools(client) : [];
  const prompts = capabilities.prompts ? await listPrompts(client).catch(() => []) : [];
  if (capabilities.tools) {
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      options.onToolsChanged();
      return Promise.resolve();
    });
  }
  const instructions = client.getInstructions();
  return {
    tools,
    prompts,
    resources: capabilities.resources !== undefined,
    ...(instructions ? { instructions } : {}),
    listTools: () => listTools(client),
    async callTool(name, args, { signal, timeoutMs }): Promise<McpCallResult> {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: timeoutMs,
      });
      return result as McpCallResult;
    },
    async listResources(signal) {
      const listed = await client.listResources({}, { signal, timeout: REQUEST_TIMEOUT_MS });
      return (listed.resources as McpResourceEntry[]).map((r): McpResourceEntry => ({
        uri: r.uri,
        name: r.name,
        ...(r.mimeType ? { mimeType: r.mimeType } : {}),
        ...(r.description ? { description: r.description } : {}),
      }));
    },
    async readResource(uri, signal) {
      const read = await client.readResource({ uri }, { signal, timeout: REQUEST_TIMEOUT_MS });
      return read.contents as McpContentBlock[];
    },
    async getPrompt(name, args, signal) {
      const got = await client.getPrompt({ name, arguments: args }, {
        signal,
        timeout: REQUEST_TIMEOUT_MS,
      });
      return (got.messages as McpPromptMessage[]).map((m) => ({
        role: m.role,
        content: m.content,
      }));
    },
    stderr,
    async close() {
      closing = true;
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
    },
  };
}

/**
 * The server's transport. The remote ones (and what they load: an SSE parser, OAuth) are imported
 * only for a remote server: a session of stdio servers does not wait for them at its start.
 */
async function makeTransport(config: McpServerConfig, options: ConnectOptions): Promise<Transport> {
  if (config.type === "stdio") {
    return new GroupStdioTransport(config.command, {
      args: config.args,
      env: { ...options.env, ...config.env },
      cwd: options.cwd,
      child: options.child,
    });
  }
  const requestInit = { headers: config.headers };
  if (config.type === "http") {
    const { StreamableHTTPClientTransport } = await import(
      "@modelcontextprotocol/sdk/client/streamableHttp.js"
    );
    return new StreamableHTTPClientTransport(new URL(config.url), { requestInit });
  }
  const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
  return new SSEClientTransport(new URL(config.url), { requestInit });
}

async function listTools(client: Client): Promise<McpToolEntry[]> {
  const tools: McpToolEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout: REQUEST_TIMEOUT_MS });
    for (const tool of page.tools) {
      tools.push({
        name: tool.name,
        description: (tool.description ?? tool.title ?? "").slice(0, 2048),
        inputSchema: tool.inputSchema as Record<string, unknown>,
        ...(tool.annotations?.readOnlyHint === true ? { readOnly: true } : {}),
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

async function listPrompts(client: Client): Promise<McpPromptEntry[]> {
  const listed = await client.listPrompts({}, { timeout: REQUEST_TIMEOUT_MS });
  const prompts = listed.prompts as {
    name: string;
    description?: string;
    arguments?: { name: string; required?: boolean }[];
  }[];
  return prompts.map((p) => ({
    name: p.name,
    ...(p.description ? { description: p.description } : {}),
    ...(p.arguments && p.arguments.length > 0
      ? {
        arguments: p.arguments.map((a) => ({
          name: a.name,
          ...(a.required ? { required: true } : {}),
        })),
      }
      : {}),
  }));
}

function lostReason(stderr: string): string {
  return stderr === ""
    ? "the server closed the connection"
    : `the server exited: ${lastLine(stderr)}`;
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return (lines.at(-1) ?? "").slice(0, 300);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
