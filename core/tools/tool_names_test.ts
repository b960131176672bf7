import assert from "node:assert/strict";
import { createBaseTools } from "./base_tools.ts";
import { knownToolNames, toolFacts, ToolNames } from "./tool_names.ts";
import type { AnyTool, ToolFacts } from "./tool.ts";

const base = createBaseTools({ workspace: "/nonexistent-workspace" });

/** A tool defined here, with the facts an MCP server's fetch tool might be given. */
const fetchTool: AnyTool = {
  name: "mcp__web__fetch",
  description: "Fetches a page",
  inputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
  kind: "effect",
  readOnly: true,
  claudeNames: ["WebFetch"],
  specifierFields: ["url"],
  permission: "read-only",
  summarize: (input: { url: string }) => input.url,
  run: () => Promise.resolve({ content: "" }),
};

Deno.test("the names of a pool come from its tools' facts", () => {
  const names = new ToolNames(base);
  assert.deepEqual(names.toolsNamed("MultiEdit"), ["edit_file"]);
  assert.deepEqual(names.toolsNamed("LS"), ["glob"]);
  assert.deepEqual(names.toolsNamed("read_file"), ["read_file"]);
  assert.deepEqual(names.toolsNamed("TodoWrite"), [], "not in this pool");
  assert.equal(names.ruleTool("Read"), "read_file");
  assert.equal(names.claudeName("edit_file"), "Edit");
  assert.deepEqual(names.matchNames("write_file"), ["Write", "write_file"]);
  assert.equal(names.permission("bash"), "execute");
  assert.equal(names.permission("mcp__x__y"), "other");
  assert.ok(names.editsFiles("write_file") && !names.editsFiles("read_file"));
  assert.ok(names.readsFiles("grep") && !names.readsFiles("bash"));
});

Deno.test("a tool a pool adds brings its own names: a Claude Code name rein lacked now means it", () => {
  const known = knownToolNames();
  assert.ok(known.isClaudeOnly("WebFetch"));
  assert.equal(known.ruleTool("WebFetch"), undefined);
  const names = known.with([fetchTool]);
  assert.ok(!names.isClaudeOnly("WebFetch"));
  assert.equal(names.ruleTool("WebFetch"), "mcp__web__fetch");
  assert.deepEqual(names.matchNames("mcp__web__fetch"), ["WebFetch", "mcp__web__fetch"]);
  assert.equal(names.permission("mcp__web__fetch"), "read-only");
  assert.equal(names.specifierOf("mcp__web__fetch", { url: "https://x" }), "https://x");
  // The names known win over a tool of the same name.
  assert.equal(
    known.with([{ name: "bash", permission: "read-only" }]).permission("bash"),
    "execute",
  );
});

Deno.test("Edit and Read rules stand for their class; TaskUpdate for the uses it has", () => {
  const tasks: ToolFacts[] = [
    { name: "claim", claudeNames: ["TaskUpdate"], claudeFixed: { status: "in_progress" } },
    { name: "update", claudeNames: ["TaskUpdate"] },
  ];
  const names = new ToolNames([...base, ...tasks]);
  assert.ok(names.covers("edit_file", "write_file", "allow"));
  assert.ok(!names.covers("write_file", "edit_file", "allow"));
  assert.ok(names.covers("read_file", "grep", "allow"));
  assert.ok(!names.covers("read_file", "write_file", "allow"));
  assert.ok(names.covers("read_file", "write_file", "deny"));
  assert.ok(!names.covers("bash", "read_file", "deny"));
  // The general tool of a Claude name comes first, and covers its uses with fixed fields.
  assert.deepEqual(names.toolsNamed("TaskUpdate"), ["update", "claim"]);
  assert.equal(names.ruleTool("TaskUpdate"), "update");
  assert.ok(names.covers("update", "claim", "deny"));
  assert.ok(!names.covers("claim", "update", "deny"));
});

Deno.test("toolFacts keeps a tool's facts and nothing else", () => {
  const grep = base.find((tool) => tool.name === "grep") as AnyTool;
  assert.deepEqual(toolFacts(grep), {
    claudeNames: ["Grep"],
    claudeFields: { ignore_case: "-i", context: "-C" },
    pathFields: ["path"],
    permission: "read-only",
  });
});
