import assert from "node:assert/strict";
import { mcpReport } from "./mcp_report.ts";

Deno.test("mcpReport shows each server's scope, target and state: connected with its tools, pending, failed or disabled with the reason", () => {
  const entry = (name: string, enabled = true, reason?: string) => ({
    name,
    scope: "project" as const,
    transport: "stdio" as const,
    target: `${name}-server`,
    enabled,
    ...(reason ? { reason } : {}),
  });
  const text = mcpReport(
    [entry("a"), entry("b"), entry("c"), entry("d", false, "the folder is not trusted")],
    [
      { name: "a", status: "connected", tools: 13 },
      { name: "b", status: "pending", reason: "not up after 30 s", tools: 0 },
      { name: "c", status: "failed", reason: "c did not start: ENOENT", tools: 0 },
    ],
  );
  assert.equal(
    text,
    [
      "MCP servers",
      "  a (project, stdio: a-server)",
      "    connected, 13 tools",
      "  b (project, stdio: b-server)",
      "    pending: not up after 30 s",
      "  c (project, stdio: c-server)",
      "    failed: c did not start: ENOENT",
      "  d (project, stdio: d-server)",
      "    disabled: the folder is not trusted",
    ].join("\n"),
  );
  assert.match(mcpReport([], []), /^No MCP servers/);
});
