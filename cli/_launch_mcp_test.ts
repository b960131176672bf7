import assert from "node:assert/strict";
import { mcpLaunchNeeds } from "./_launch_mcp.ts";

const remote = (url: string) => JSON.stringify({ mcpServers: { r: { type: "http", url } } });

function needs(
  files: Record<string, string>,
  given: Partial<Parameters<typeof mcpLaunchNeeds>[0]>,
) {
  const read: string[] = [];
  const result = mcpLaunchNeeds({
    workspace: "/w",
    caller: "/c",
    mcpConfigs: [],
    strict: false,
    trustFlag: false,
    claudeJson: "/h/.claude.json",
    env: { PORT: "8123" },
    readText: (path) => {
      read.push(path);
      return files[path];
    },
    ...given,
  });
  return { ...result, read };
}

Deno.test("mcpLaunchNeeds grants the hosts of --mcp-config's remote servers (JSON or file, ${VAR} expanded) and names the files to read", () => {
  const got = needs({ "/c/servers.json": remote("https://mcp.example.com/mcp") }, {
    mcpConfigs: [remote("http://127.0.0.1:${PORT}/mcp"), "servers.json"],
    strict: true,
  });
  assert.deepEqual(got.hosts, ["127.0.0.1:8123", "mcp.example.com"]);
  assert.deepEqual(got.files, ["/c/servers.json"]);
});

Deno.test("mcpLaunchNeeds grants a .mcp.json's remote hosts only in a trusted folder, and the person's own always", () => {
  const untrusted = needs({
    "/w/.mcp.json": remote("https://repo.example/mcp"),
    "/h/.claude.json": JSON.stringify({
      mcpServers: { u: { type: "sse", url: "http://user.example:9/sse" } },
    }),
  }, {});
  assert.deepEqual(untrusted.hosts, ["user.example:9"]);
  const trusted = needs({
    "/w/.mcp.json": remote("https://repo.example/mcp"),
    "/h/.claude.json": JSON.stringify({ projects: { "/": { hasTrustDialogAccepted: true } } }),
  }, {});
  assert.deepEqual(trusted.hosts, ["repo.example"]);
  const flagged = needs({ "/w/.mcp.json": remote("https://repo.example/mcp") }, {
    trustFlag: true,
  });
  assert.deepEqual(flagged.hosts, ["repo.example"]);
});

Deno.test("mcpLaunchNeeds grants nothing without a remote server, and --strict-mcp-config reads no other file", () => {
  const none = needs(
    { "/w/.mcp.json": JSON.stringify({ mcpServers: { s: { command: "x" } } }) },
    {},
  );
  assert.deepEqual(none, { hosts: [], files: [], read: ["/w/.mcp.json", "/h/.claude.json"] });
  assert.deepEqual(needs({}, { strict: true }).read, []);
});
