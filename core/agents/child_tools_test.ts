import assert from "node:assert/strict";
import type { AnyTool } from "../tools/tool.ts";
import { childTools, reinToolNames } from "./child_tools.ts";

const pool = ["read_file", "glob", "grep", "bash", "write_file", "edit_file", "task", "mcp__x__y"]
  .map((name) => ({ name }) as AnyTool);

function names(tools: readonly AnyTool[]): string[] {
  return tools.map((tool) => tool.name);
}

Deno.test("a child without a tool list gets its parent's pool without task", () => {
  assert.deepEqual(names(childTools(pool, undefined)), [
    "read_file",
    "glob",
    "grep",
    "bash",
    "write_file",
    "edit_file",
    "mcp__x__y",
  ]);
});

Deno.test("a child with a tool list gets those tools of its parent's pool, in pool order", () => {
  assert.deepEqual(names(childTools(pool, ["grep", "read_file", "nonesuch"])), [
    "read_file",
    "grep",
  ]);
  assert.deepEqual(names(childTools(pool, ["task"])), ["task"]);
  assert.deepEqual(names(childTools(pool, [])), []);
});

Deno.test("Claude Code's tool names become rein's; specifiers and duplicates are dropped", () => {
  assert.deepEqual(
    reinToolNames([
      "Read",
      "Grep",
      "Bash(git *)",
      "Edit",
      "MultiEdit",
      "Agent",
      "mcp__x__y",
      "glob",
    ]),
    ["read_file", "grep", "bash", "edit_file", "task", "mcp__x__y", "glob"],
  );
});

Deno.test("an agent given TaskUpdate may update, claim and complete tasks", () => {
  assert.deepEqual(reinToolNames(["TaskCreate", "TaskList", "TaskGet", "TaskUpdate"]), [
    "create_task",
    "list_tasks",
    "get_task",
    "update_task",
    "claim_task",
    "complete_task",
  ]);
});
