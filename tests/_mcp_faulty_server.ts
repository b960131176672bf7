/**
 * A stdio MCP server that misbehaves on purpose, for tests/mcp_faults_test.ts (run with
 * `deno run -A --config deno.json tests/_mcp_faulty_server.ts MODE`):
 * - `hang`: never answers `initialize` (a server that hangs at start);
 * - `tools`: tools `echo {text}` (read-only), `crash {}` (the process exits mid-call),
 *   `big {megabytes}` (an answer that large), `sleep {seconds}` and `grow {}` (adds the tool `grown` and says its
 *   tool list changed). After a crash it starts normally again.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** A tools/call request, as the handler gets it. */
interface CallTool {
  params: { name: string; arguments?: Record<string, unknown> };
}

const mode = Deno.args[0] ?? "tools";
if (mode === "hang") {
  // Reads nothing and answers nothing, until it is killed.
  setInterval(() => {}, 60_000);
  await new Promise(() => {});
}

const server = new Server({ name: "faulty", version: "1.0.0" }, { capabilities: { tools: {} } });
/** Whether `grow` was called: the tool `grown` is listed from then on. */
let grown = false;
server.setRequestHandler(ListToolsRequestSchema, () =>
  Promise.resolve({
    tools: [
      {
        name: "grow",
        description: "Adds the tool grown (the server says its tool list changed)",
        inputSchema: { type: "object", properties: {} },
      },
      ...(grown
        ? [{
          name: "grown",
          description: "Listed once grow was called",
          inputSchema: { type: "object", properties: {} },
        }]
        : []),
      {
        name: "echo",
        description: "Echoes its text",
        inputSchema: {
          type: "object",
          properties: { text: { type: "string" } },
          required: ["text"],
        },
        annotations: { readOnlyHint: true },
      },
      {
        name: "sleep",
        description: "Answers after that many seconds",
        inputSchema: {
          type: "object",
          properties: { seconds: { type: "number" } },
          required: ["seconds"],
        },
      },
      {
        name: "crash",
        description: "The server exits while answering",
        inputSchema: { type: "object", properties: {} },
      },
      {
        name: "big",
        description: "Answers with that many megabytes of text",
        inputSchema: {
          type: "object",
          properties: { megabytes: { type: "number" } },
          required: ["megabytes"],
        },
        annotations: { readOnlyHint: true },
      },
    ],
  }));
server.setRequestHandler(CallToolRequestSchema, (request: CallTool) => {
  const args = request.params.arguments ?? {};
  switch (request.params.name) {
    case "echo":
      return Promise.resolve({ content: [{ type: "text", text: `echo: ${args.text}` }] });
    case "grow":
      grown = true;
      return server.sendToolListChanged().then(() => ({
        content: [{ type: "text", text: "grown" }],
      }));
    case "grown":
      return Promise.resolve({ content: [{ type: "text", text: "the new tool answers" }] });
    case "sleep":
      return new Promise((resolve) =>
        setTimeout(
          () => resolve({ content: [{ type: "text", text: "slept" }] }),
          Number(args.seconds) * 1000,
        )
      );
    case "crash":
      console.error("faulty server: crashing on purpose");
      Deno.exit(3);
      break;
    case "big": {
      const line = `${"x".repeat(99)}\n`;
      const text = line.repeat(Math.round(Number(args.megabytes) * 10_000));
      return Promise.resolve({ content: [{ type: "text", text }] });
    }
  }
  return Promise.resolve({ content: [{ type: "text", text: "unknown tool" }], isError: true });
});
await server.connect(new StdioServerTransport());
