/**
 * MCP's costs: `deno bench --allow-all bench/mcp_bench.ts`.
 * - a call's overhead: an MCP tool's `run` (rein: the connection ready, the call, the result
 *   made text) against the SDK client's own `callTool` to the same server (target: under 5 ms
 *   more; the server is tests/_mcp_faulty_server.ts's `echo`, so the server's own time is tiny);
 * - start: three stdio servers started together against one alone (target: the three take about
 *   as long as the slowest one, since they start in parallel and the first request waits for the
 *   last of them only).
 * @module
 */
import { fileURLToPath } from "node:url";
import { McpServers } from "../core/mcp/mod.ts";
import { mcpToolSource } from "../core/mcp/mcp_tools.ts";
import type { ConfiguredServer } from "../core/mcp/read_mcp_config.ts";
import type { AnyTool, ToolCallContext } from "../core/tools/tool.ts";
import type { State } from "../core/state/state.ts";

const SERVER = fileURLToPath(new URL("../tests/_mcp_faulty_server.ts", import.meta.url));
const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));

function server(name: string): ConfiguredServer {
  return {
    entry: { name, scope: "dynamic", transport: "stdio", target: name, enabled: true },
    config: {
      type: "stdio",
      command: Deno.execPath(),
      args: ["run", "-A", "--quiet", "--config", CONFIG, SERVER, "tools"],
      env: {},
    },
  };
}

function servers(names: string[]): McpServers {
  return new McpServers({
    setup: { servers: names.map(server), problems: [] },
    cwd: Deno.cwd(),
    env: Deno.env.toObject(),
    startupTimeoutMs: 60_000,
  });
}

const running = servers(["bench"]);
await running.started();
const connection = running.connection("bench");
if (!connection) throw new Error(`The bench server did not start: ${running.whyNot("bench")}`);
// The tool as a session's pool makes it, from the server's recorded state.
const state = {
  extensions: {
    mcp: { s: { lead: { configured: [], problems: [], servers: { bench: running.states()[0] } } } },
  },
} as unknown as State;
const tools = mcpToolSource({
  servers: () => running,
  workspace: Deno.cwd(),
  limits: { toolTimeoutMs: 60_000, maxOutputTokens: 25_000 },
})({ state, session: "s", agent: "lead" });
const echo = tools.find((tool) => tool.name === "mcp__bench__echo") as AnyTool;
const context = {
  signal: new AbortController().signal,
  session: "s",
  agent: "lead",
  callId: "toolu_bench",
  cwd: Deno.cwd(),
  view: () => state,
} satisfies ToolCallContext;

Deno.bench("call: the SDK client's callTool (the server's own time)", {
  group: "call",
  baseline: true,
}, async () => {
  await connection.callTool("echo", { text: "hi" }, {
    signal: context.signal,
    timeoutMs: 60_000,
  });
});

Deno.bench("call: rein's mcp__bench__echo run", { group: "call" }, async () => {
  await echo.run({ text: "hi" }, context);
});

Deno.bench("start: one stdio server", { group: "start", baseline: true, n: 3 }, async () => {
  const one = servers(["a"]);
  await one.started();
  await one.close();
});

Deno.bench("start: three stdio servers together", { group: "start", n: 3 }, async () => {
  const three = servers(["a", "b", "c"]);
  await three.started();
  await three.close();
});

globalThis.addEventListener("unload", () => {
  running.close();
});
