import process from "node:process";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { REIN_VERSION } from "../version.ts";
import { fileTools, runFileTool } from "./file_tools.ts";
import { LogReader } from "./log_tools.ts";
import type { Captured } from "./captured_io.ts";

/** What `rein mcp serve` serves. */
export interface McpServeOptions {
  /** The workspace (absolute): the file tools are confined to it. */
  workspace: string;
  /** The event log (absolute), only ever read. */
  log: string;
}

/**
 * The MCP server `rein mcp serve` runs: rein's read-only file tools (read_file, glob, grep,
 * confined to the workspace) and its log as tools (`sessions`, `session_state`, `task_graph`,
 * `verify_session`) and resources (`rein://sessions`, `rein://session/<id>/state`). Nothing it
 * serves writes: not the workspace, not the log.
 */
export function reinMcpServer(options: McpServeOptions): McpServer {
  const server = new McpServer({ name: "rein", version: REIN_VERSION });
  const reader = new LogReader(options.log);
  let calls = 0;
  for (const tool of fileTools(options)) {
    server.registerTool(tool.name, {
      description: tool.description,
      inputSchema: z.fromJSONSchema(tool.inputSchema ?? { type: "object" }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    }, async (input: unknown, extra: { signal: AbortSignal }) => {
      const result = await runFileTool(
        tool,
        input,
        options.workspace,
        extra.signal,
        `mcp-${++calls}`,
      );
      return {
        content: [{ type: "text", text: result.content }],
        isError: result.isError ?? false,
      };
    });
  }
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  server.registerTool("sessions", {
    description: "The sessions of rein's log (as `rein sessions --json`): id, start, first " +
      "prompt, turns, cost and status of each",
    annotations: readOnly,
  }, async () => answer(await reader.sessions()));
  server.registerTool(
    "session_state",
    {
      description: "The projected state of one session (as `rein state --json --session ID`), at " +
        "the end of the log or, with `at`, folded only up to that seq",
      inputSchema: {
        session: z.string().min(1).describe("the session's id (a prefix is enough)"),
        at: z.number().int().min(1).optional().describe("fold only up to this seq"),
      },
      annotations: readOnly,
    },
    async ({ session, at }: { session: string; at?: number }) =>
      answer(await reader.sessionState(session, at)),
  );
  server.registerTool("task_graph", {
    description: "The workspace's task graph (as `rein tasks --json`): each task's status, " +
      "owner and what it waits for",
    inputSchema: {
      at: z.number().int().min(1).optional().describe("fold only up to this seq"),
    },
    annotations: readOnly,
  }, async ({ at }: { at?: number }) => answer(await reader.taskGraph(at)));
  server.registerTool("verify_session", {
    description: "Replay one session offline and compare it with its log (as `rein replay " +
      "--verify --quiet --session ID`): the verdict, an error naming the first divergent seq",
    inputSchema: { session: z.string().min(1).describe("the session's id (a prefix is enough)") },
    annotations: readOnly,
  }, async ({ session }: { session: string }) => answer(await reader.verify(session)));
  server.registerResource("sessions", "rein://sessions", {
    description: "The sessions of rein's log, as `rein sessions --json`",
    mimeType: "application/json",
  }, async (uri: URL) => ({
    contents: [{
      uri: uri.href,
      mimeType: "application/json",
      text: text(await reader.sessions()),
    }],
  }));
  server.registerResource(
    "session-state",
    new ResourceTemplate("rein://session/{id}/state", {
      list: async () => ({
        resources: (await reader.sessionIds()).map((id) => ({
          uri: `rein://session/${id}/state`,
          name: `session ${id} state`,
          mimeType: "application/json",
        })),
      }),
    }),
    {
      description: "A session's projected state at the end of the log, as `rein state --json`",
      mimeType: "application/json",
    },
    async (uri: URL, { id }: { id?: string | string[] }) => {
      const session = Array.isArray(id) ? id[0] ?? "" : id ?? "";
      const result = await reader.sessionState(decodeURIComponent(session));
      if (result.code !== 0) throw new Error(text(result));
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: result.stdout }] };
    },
  );
  return server;
}

/**
 * `rein mcp serve`: serves {@link reinMcpServer} on stdin and stdout until the client closes
 * stdin. Whatever rein's code would print with `console.log` goes to stderr: stdout is the
 * protocol's.
 */
export async function mcpServe(options: McpServeOptions): Promise<number> {
  console.log = console.error;
  const server = reinMcpServer(options);
  const closed = new Promise<void>((done) => {
    server.server.onclose = () => done();
    process.stdin.once("end", () => done());
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
  return 0;
}

/** A command's output as a tool's answer: an error when it failed. */
function answer(result: Captured) {
  return { content: [{ type: "text" as const, text: text(result) }], isError: result.code !== 0 };
}

/** What a command printed: its output, then what it said on stderr. */
function text(result: Captured): string {
  return `${result.stdout}${result.stderr}`.trimEnd() || `(exit ${result.code})`;
}
