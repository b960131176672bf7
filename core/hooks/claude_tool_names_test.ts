import assert from "node:assert/strict";
import { fromClaudeInput, hookMatchNames, toClaudeCall } from "./claude_tool_names.ts";

const cwd = "/work/repo";

Deno.test("bash keeps its fields and becomes Bash", () => {
  const input = { command: "ls", timeout: 5000, description: "List" };
  assert.deepEqual(toClaudeCall("bash", input, cwd), { tool_name: "Bash", tool_input: input });
  assert.deepEqual(fromClaudeInput("bash", { command: "ls -a", run_in_background: true }, cwd), {
    command: "ls -a",
    run_in_background: true,
  });
});

Deno.test("file tools give hooks an absolute file_path", () => {
  assert.deepEqual(toClaudeCall("read_file", { path: "src/a.ts", offset: 3, limit: 10 }, cwd), {
    tool_name: "Read",
    tool_input: { file_path: "/work/repo/src/a.ts", offset: 3, limit: 10 },
  });
  assert.deepEqual(toClaudeCall("write_file", { path: "/work/repo/b.md", content: "x" }, cwd), {
    tool_name: "Write",
    tool_input: { file_path: "/work/repo/b.md", content: "x" },
  });
  assert.deepEqual(
    toClaudeCall(
      "edit_file",
      { path: "./c.ts", old_string: "a", new_string: "b", replace_all: true },
      cwd,
    ),
    {
      tool_name: "Edit",
      tool_input: {
        file_path: "/work/repo/c.ts",
        old_string: "a",
        new_string: "b",
        replace_all: true,
      },
    },
  );
});

Deno.test("a hook's file_path comes back relative inside the workspace, absolute outside", () => {
  assert.deepEqual(fromClaudeInput("read_file", { file_path: "/work/repo/src/a.ts" }, cwd), {
    path: "src/a.ts",
  });
  assert.deepEqual(fromClaudeInput("write_file", { file_path: "/etc/x", content: "" }, cwd), {
    path: "/etc/x",
    content: "",
  });
  assert.deepEqual(fromClaudeInput("edit_file", { file_path: "/work/repo/..x" }, cwd), {
    path: "..x",
  });
  assert.deepEqual(fromClaudeInput("edit_file", { file_path: "/work/repository/x" }, cwd), {
    path: "/work/repository/x",
  });
  assert.deepEqual(fromClaudeInput("read_file", { file_path: "rel/a.ts" }, cwd), {
    path: "rel/a.ts",
  });
});

Deno.test("glob and grep resolve their search path; grep's flags get Claude Code's names", () => {
  assert.deepEqual(toClaudeCall("glob", { pattern: "**/*.ts" }, cwd), {
    tool_name: "Glob",
    tool_input: { pattern: "**/*.ts" },
  });
  assert.deepEqual(
    toClaudeCall(
      "grep",
      { pattern: "x", path: "src", ignore_case: true, context: 2, output_mode: "content" },
      cwd,
    ),
    {
      tool_name: "Grep",
      tool_input: {
        pattern: "x",
        path: "/work/repo/src",
        "-i": true,
        "-C": 2,
        output_mode: "content",
      },
    },
  );
  assert.deepEqual(
    fromClaudeInput("grep", { pattern: "x", path: "/work/repo", "-i": false, "-C": 1 }, cwd),
    { pattern: "x", path: ".", ignore_case: false, context: 1 },
  );
});

Deno.test("a round trip gives back rein's input", () => {
  const input = { path: "src/a.ts", old_string: "a", new_string: "b", extra: [1] };
  const { tool_input } = toClaudeCall("edit_file", input, cwd);
  assert.deepEqual(fromClaudeInput("edit_file", tool_input, cwd), input);
});

Deno.test("task, skills, todos and MCP tools keep their fields", () => {
  const task = { description: "d", prompt: "p", subagent_type: "Explore" };
  assert.deepEqual(toClaudeCall("task", task, cwd), { tool_name: "Task", tool_input: task });
  assert.equal(toClaudeCall("load_skill", { skill: "pdf" }, cwd).tool_name, "Skill");
  assert.equal(toClaudeCall("todo_write", { todos: [] }, cwd).tool_name, "TodoWrite");
  assert.deepEqual(toClaudeCall("mcp__db__query", { path: "x" }, cwd), {
    tool_name: "mcp__db__query",
    tool_input: { path: "x" },
  });
  assert.deepEqual(fromClaudeInput("mcp__db__query", { file_path: "/a" }, cwd), {
    file_path: "/a",
  });
});

Deno.test("the job tools are TaskOutput and TaskStop, with task_id for job_id", () => {
  const read = { job_id: "b00000001", block: false };
  assert.deepEqual(toClaudeCall("job_output", read, cwd), {
    tool_name: "TaskOutput",
    tool_input: { task_id: "b00000001", block: false },
  });
  assert.deepEqual(toClaudeCall("job_stop", { job_id: "b1" }, cwd), {
    tool_name: "TaskStop",
    tool_input: { task_id: "b1" },
  });
  assert.deepEqual(fromClaudeInput("job_stop", { task_id: "b1" }, cwd), { job_id: "b1" });
  assert.deepEqual(hookMatchNames("TaskOutput"), ["TaskOutput", "BashOutput", "job_output"]);
  assert.deepEqual(hookMatchNames("KillShell"), ["TaskStop", "KillShell", "KillBash", "job_stop"]);
});

Deno.test("hookMatchNames gives Claude Code's names, then rein's, from either", () => {
  assert.deepEqual(hookMatchNames("bash"), ["Bash", "bash"]);
  assert.deepEqual(hookMatchNames("Edit"), ["Edit", "MultiEdit", "edit_file"]);
  assert.deepEqual(hookMatchNames("LS"), ["Glob", "LS", "glob"]);
  assert.deepEqual(hookMatchNames("task"), ["Task", "Agent", "task"]);
  assert.deepEqual(hookMatchNames("Agent"), ["Task", "Agent", "task"]);
  assert.deepEqual(hookMatchNames("mcp__db__query"), ["mcp__db__query"]);
});

Deno.test("the task tools are Claude Code's TaskCreate, TaskList, TaskGet and TaskUpdate", () => {
  assert.deepEqual(
    toClaudeCall("create_task", { subject: "Ship it", description: "d", blockedBy: [1] }, cwd),
    {
      tool_name: "TaskCreate",
      tool_input: { subject: "Ship it", description: "d", blockedBy: [1] },
    },
  );
  assert.deepEqual(toClaudeCall("list_tasks", {}, cwd), { tool_name: "TaskList", tool_input: {} });
  assert.deepEqual(toClaudeCall("get_task", { task_id: 3 }, cwd), {
    tool_name: "TaskGet",
    tool_input: { taskId: 3 },
  });
  assert.deepEqual(toClaudeCall("claim_task", { task_id: 3 }, cwd), {
    tool_name: "TaskUpdate",
    tool_input: { taskId: 3, status: "in_progress" },
  });
  assert.deepEqual(toClaudeCall("complete_task", { task_id: 3 }, cwd), {
    tool_name: "TaskUpdate",
    tool_input: { taskId: 3, status: "completed" },
  });
  assert.deepEqual(toClaudeCall("update_task", { task_id: 3, addBlockedBy: [1] }, cwd), {
    tool_name: "TaskUpdate",
    tool_input: { taskId: 3, addBlockedBy: [1] },
  });
  // A hook's rewritten input cannot turn a claim into a completion.
  assert.deepEqual(
    fromClaudeInput("claim_task", { taskId: 4, status: "completed" }, cwd),
    { task_id: 4 },
  );
  assert.deepEqual(hookMatchNames("claim_task"), ["TaskUpdate", "claim_task"]);
  assert.deepEqual(hookMatchNames("TaskUpdate"), ["TaskUpdate", "update_task"]);
});
