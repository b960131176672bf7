import type { McpPromptEntry, McpToolEntry } from "../../events/event_types.ts";

/** One block of an MCP result (a tool's content, a resource's contents, a prompt's message). */
export interface McpContentBlock {
  type?: string;
  text?: string;
  /** Base64 data (an image, audio, a blob resource). */
  data?: string;
  blob?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  /** A resource link's description. */
  description?: string;
  resource?: McpContentBlock;
}

/** What a server answered to a tool call. */
export interface McpCallResult {
  content?: McpContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** A resource a server lists, with the server added by list_mcp_resources. */
export interface McpResourceEntry {
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
}

/** A prompt's message, as `prompts/get` gives it. */
export interface McpPromptMessage {
  role: "user" | "assistant";
  content: McpContentBlock;
}

/** A live connection to one MCP server (core/mcp/_mcp_connection.ts makes it). */
export interface McpConnection {
  tools: McpToolEntry[];
  prompts: McpPromptEntry[];
  resources: boolean;
  instructions?: string;
  listTools(): Promise<McpToolEntry[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<McpCallResult>;
  listResources(signal: AbortSignal): Promise<McpResourceEntry[]>;
  readResource(uri: string, signal: AbortSignal): Promise<McpContentBlock[]>;
  getPrompt(
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<McpPromptMessage[]>;
  /** The end of what a stdio server wrote to stderr ("" for remote servers). */
  stderr(): string;
  close(): Promise<void>;
}
