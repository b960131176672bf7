/**
 * MCP's costs, the issue's two numbers: `deno bench --allow-all bench/mcp_bench.ts`.
 *
 * - **Start**: `rein -p` from launch to its first model request (the fake model server's
 *   arrival), with no MCP server and with three stdio servers configured (`--mcp-config`) that
 *   take 0.3, 0.6 and 0.9 s to answer `initialize`, against the slowest server's own start (the
 *   SDK client alone: spawn → initialize answered). Target: the first request is delayed by
 *   (three − none) no more than the slowest server's own start: rein starts them in parallel,
 *   while it opens, and waits for the last one only. The servers are a few lines of sh sleeping
 *   before they answer, so that their start is waiting, not CPU: three Deno or Node
 *   servers starting at once on a 2-core machine measure the machine's contention, not rein's
 *   parallelism (the first run of this bench, with three Deno servers, did).
 * - **Call**: rein's MCP tool (`mcp__bench__echo`'s `run`: the connection ready, the SDK's
 *   call, the result made content) against the SDK client's own `callTool` to the same server
 *   (tests/_mcp_faulty_server.ts's `echo`, whose own time is tiny). Target: under 5 ms more. The
 *   two are also timed in alternation (printed at the end: the medians and their difference), as
 *   two benches run one after the other are moved by the machine's load between them. What the
 *   harness adds to any tool call (the gate, hooks, the log's appends) is not MCP's and is not
 *   counted here (bench/agent_bench.ts covers a call's round).
 * @module
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { McpServers } from "../core/mcp/mod.ts";
import { mcpToolSource } from "../core/mcp/mcp_tools.ts";
import type { ConfiguredServer } from "../core/mcp/read_mcp_config.ts";
import type { AnyTool, ToolCallContext } from "../core/tools/tool.ts";
import type { State } from "../core/state/state.ts";
import { message, startFakeAnthropic } from "../testing/fake_anthropic.ts";

const SERVER = fileURLToPath(new URL("../tests/_mcp_faulty_server.ts", import.meta.url));
const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));
const CLI = fileURLToPath(new URL("../cli/main.ts", import.meta.url));
/** How long each of the three start servers waits before it answers `initialize`, seconds. */
const DELAYS = [0.3, 0.6, 0.9];

/**
 * A stdio MCP server in sh that waits `$1` seconds, then answers (tools: echo): a shell starts
 * in a few milliseconds, so its start is the wait (Python here takes over a second to start
 * under load).
 */
const SLEEPY = `sleep "$1"
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\\([0-9][0-9]*\\).*/\\1/p')
  [ -z "$id" ] && continue
  case "$line" in
    *'"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sleepy","version":"1"}}}\\n' "$id" ;;
    *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"echo","description":"Echoes","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]}}\\n' "$id" ;;
    *'"tools/call"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"hi"}]}}\\n' "$id" ;;
    *) printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"unknown method"}}\\n' "$id" ;;
  esac
done
`;

const dir = await Deno.makeTempDir({ prefix: "rein-mcp-bench-" });
const sleepy = join(dir, "sleepy.sh");
await Deno.writeTextFile(sleepy, SLEEPY);

function faulty(name: string): ConfiguredServer {
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

const running = new McpServers({
  setup: { servers: [faulty("bench")], problems: [] },
  cwd: Deno.cwd(),
  env: Deno.env.toObject(),
  startupTimeoutMs: 60_000,
});
await running.started();
const connection = running.connection("bench");
if (!connection) throw new Error(`The bench server did not start: ${running.whyNot("bench")}`);
// The tool as a session's pool makes it, from the server's recorded state.
const state = {
  extensions: {
    mcp: {
      s: { lead: { configured: [], problems: [], servers: { bench: running.states()[0] } } },
    },
  },
  sessions: { byId: {} },
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
const sdkCall = () =>
  connection.callTool("echo", { text: "hi" }, { signal: context.signal, timeoutMs: 60_000 });
const reinCall = () => echo.run({ text: "hi" }, context);

Deno.bench("call: the SDK client's callTool (the server's own time)", {
  group: "call",
  baseline: true,
}, async () => {
  await sdkCall();
});

Deno.bench("call: rein's mcp__bench__echo run", { group: "call" }, async () => {
  await reinCall();
});

/** rein -p from launch to its first model request, with `servers` (delays, s) configured. */
async function firstRequest(b: Deno.BenchContext, delays: readonly number[]): Promise<void> {
  await using fake = await startFakeAnthropic({ script: () => message("Done.") });
  const workspace = await Deno.makeTempDir({ dir, prefix: "ws-" });
  const servers = Object.fromEntries(
    delays.map((delay, i) => [`s${i}`, { command: "sh", args: [sleepy, String(delay)] }]),
  );
  const command = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      CLI,
      "-p",
      "go",
      "--workspace",
      workspace,
      ...(delays.length > 0 ? ["--mcp-config", JSON.stringify({ mcpServers: servers })] : []),
    ],
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: workspace,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno"),
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-fake-bench-key",
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  });
  b.start();
  const child = command.spawn();
  const output = child.output();
  await Promise.race([
    fake.waitForRequests(1, 60_000),
    output.then((out) => {
      throw new Error(`rein ended before its request: ${new TextDecoder().decode(out.stderr)}`);
    }),
  ]);
  b.end();
  const out = await output;
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  const tools = fake.requests[0]?.body?.tools?.map((tool) => tool.name) ?? [];
  // Each server's tool is in the first request: it waited for all three.
  for (let i = 0; i < delays.length; i++) {
    if (!tools.includes(`mcp__s${i}__echo`)) throw new Error(`s${i}'s tool was not in the request`);
  }
}

{
  Deno.bench("start: rein -p to its first request, no MCP server", {
    group: "start",
    baseline: true,
    n: 5,
    warmup: 1,
  }, async (b) => await firstRequest(b, []));

  Deno.bench("start: rein -p to its first request, three stdio servers (0.3, 0.6, 0.9 s)", {
    group: "start",
    n: 5,
    warmup: 1,
  }, async (b) => await firstRequest(b, DELAYS));

  Deno.bench("start: the slowest server's own start (0.9 s; SDK client: spawn → initialize)", {
    group: "own start",
    n: 5,
    warmup: 1,
  }, async (b) => {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const client = new Client({ name: "bench", version: "1" });
    b.start();
    await client.connect(
      new StdioClientTransport({ command: "sh", args: [sleepy, String(DELAYS.at(-1))] }),
    );
    b.end();
    await client.close();
  });
}

globalThis.addEventListener("unload", () => {
  running.close();
  Deno.removeSync(dir, { recursive: true });
});

// The call's two ways timed in alternation, 300 times each (after 30 of each unmeasured).
const paired = { sdk: [] as number[], rein: [] as number[] };
for (let i = 0; i < 330; i++) {
  const t0 = performance.now();
  await sdkCall();
  const t1 = performance.now();
  await reinCall();
  const t2 = performance.now();
  if (i < 30) continue;
  paired.sdk.push(t1 - t0);
  paired.rein.push(t2 - t1);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
const [sdk, rein] = [median(paired.sdk), median(paired.rein)];
console.log(
  `call, in alternation (300 each): SDK callTool median ${sdk.toFixed(3)} ms, rein's run ` +
    `median ${rein.toFixed(3)} ms, rein's overhead ${(rein - sdk).toFixed(3)} ms (target ≤ 5 ms)`,
);
