import assert from "node:assert/strict";
import { expandServer, mergeScopes, parseMcpServers } from "./mcp_config.ts";
import { mcpToolName } from "./mcp_names.ts";

Deno.test("parseMcpServers reads stdio, http and sse entries and reports a bad one by file and name", () => {
  const parsed = parseMcpServers(
    {
      a: { command: "npx", args: ["-y", "srv"], env: { K: "v" } },
      b: { type: "http", url: "http://127.0.0.1:1/mcp", headers: { X: "1" } },
      c: { type: "sse", url: "http://127.0.0.1:1/sse" },
      bad: { url: "http://x/mcp" },
      worse: { command: 123 },
      d: { type: "streamable-http", url: "http://127.0.0.1:2/mcp" },
    },
    "project",
    "/w/.mcp.json",
  );
  assert.deepEqual(parsed.servers.map((s) => [s.name, s.config.type]), [
    ["a", "stdio"],
    ["b", "http"],
    ["c", "sse"],
    ["d", "http"],
  ]);
  assert.deepEqual(parsed.problems, [
    'Ignored MCP server "bad" in "/w/.mcp.json": it has a "url" but no "type" (write "type": "http" or "sse")',
    'Ignored MCP server "worse" in "/w/.mcp.json": "command" must be a non-empty string',
  ]);
});

Deno.test("mergeScopes takes a name's whole entry from local over project over user, and strict keeps --mcp-config's only", () => {
  const server = (
    name: string,
    scope: "local" | "project" | "user" | "dynamic",
    command: string,
  ) => ({
    name,
    scope,
    file: scope,
    config: { type: "stdio" as const, command, args: [], env: {} },
  });
  const scopes = {
    local: [server("x", "local", "l")],
    project: [server("x", "project", "p"), server("y", "project", "p")],
    user: [server("y", "user", "u"), server("z", "user", "u")],
    dynamic: [server("d", "dynamic", "d")],
  };
  assert.deepEqual(
    mergeScopes(scopes, false).map((s) => `${s.name}:${s.scope}`),
    ["d:dynamic", "x:local", "y:project", "z:user"],
  );
  assert.deepEqual(mergeScopes(scopes, true).map((s) => s.name), ["d"]);
});

Deno.test("expandServer expands ${VAR} and ${VAR:-default} in command, args, env, url and headers", () => {
  const env = (name: string) => ({ HOME: "/h", EMPTY: "" } as Record<string, string>)[name];
  const stdio = expandServer(
    {
      type: "stdio",
      command: "${HOME}/bin/srv",
      args: ["--x=${NOPE:-d}", "${MISSING}"],
      env: { A: "${HOME}" },
    },
    env,
  );
  assert.deepEqual(stdio.config, {
    type: "stdio",
    command: "/h/bin/srv",
    args: ["--x=d", "${MISSING}"],
    env: { A: "/h" },
  });
  assert.deepEqual(stdio.missing, ["MISSING"]);
  const http = expandServer(
    { type: "http", url: "http://${HOST:-localhost}/mcp", headers: { T: "Bearer ${HOME}" } },
    env,
  );
  assert.deepEqual(http.config, {
    type: "http",
    url: "http://localhost/mcp",
    headers: { T: "Bearer /h" },
  });
});

Deno.test("mcpToolName normalises names as Claude Code does", () => {
  assert.equal(mcpToolName("my.server", "get sum"), "mcp__my_server__get_sum");
  assert.equal(mcpToolName("everything", "get-sum"), "mcp__everything__get-sum");
});
