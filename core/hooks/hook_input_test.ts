import assert from "node:assert/strict";
import { buildHookInput, type HookSession } from "./hook_input.ts";

const session: HookSession = {
  sessionId: "s1",
  transcriptPath: "/w/.rein/events.jsonl",
  cwd: "/w",
  permissionMode: "default",
};
const common = {
  session_id: "s1",
  transcript_path: "/w/.rein/events.jsonl",
  cwd: "/w",
  permission_mode: "default",
};

Deno.test("PreToolUse input names the tool and its input as Claude Code does", () => {
  assert.deepEqual(
    buildHookInput(session, {
      event: "PreToolUse",
      tool: "read_file",
      input: { path: "a.ts" },
      toolUseId: "toolu_1",
    }),
    {
      ...common,
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: "/w/a.ts" },
      tool_use_id: "toolu_1",
    },
  );
});

Deno.test("PostToolUse input carries the tool's response", () => {
  assert.deepEqual(
    buildHookInput(session, {
      event: "PostToolUse",
      tool: "bash",
      input: { command: "ls" },
      toolUseId: "toolu_2",
      response: { content: "a.ts", isError: false },
    }),
    {
      ...common,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "toolu_2",
      tool_response: { content: "a.ts", isError: false },
    },
  );
});

Deno.test("PostToolUseFailure input carries the error and whether the user interrupted", () => {
  assert.deepEqual(
    buildHookInput(session, {
      event: "PostToolUseFailure",
      tool: "bash",
      input: { command: "false" },
      toolUseId: "toolu_3",
      error: "Exit code: 1",
      isInterrupt: false,
    }),
    {
      ...common,
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_input: { command: "false" },
      tool_use_id: "toolu_3",
      error: "Exit code: 1",
      is_interrupt: false,
    },
  );
});

Deno.test("the other events' inputs carry their own fields, optional ones only when given", () => {
  assert.deepEqual(buildHookInput(session, { event: "UserPromptSubmit", prompt: "hi" }), {
    ...common,
    hook_event_name: "UserPromptSubmit",
    prompt: "hi",
  });
  assert.deepEqual(buildHookInput(session, { event: "Stop", stopHookActive: false }), {
    ...common,
    hook_event_name: "Stop",
    stop_hook_active: false,
  });
  assert.deepEqual(
    buildHookInput(session, {
      event: "Stop",
      stopHookActive: true,
      lastAssistantMessage: "Done.",
    }),
    { ...common, hook_event_name: "Stop", stop_hook_active: true, last_assistant_message: "Done." },
  );
  assert.deepEqual(
    buildHookInput(session, { event: "SessionStart", source: "resume", model: "claude-sonnet-5" }),
    { ...common, hook_event_name: "SessionStart", source: "resume", model: "claude-sonnet-5" },
  );
  assert.deepEqual(buildHookInput(session, { event: "SessionEnd", reason: "other" }), {
    ...common,
    hook_event_name: "SessionEnd",
    reason: "other",
  });
});

Deno.test("TaskCreated and TaskCompleted hooks get the task's id, subject and description", () => {
  assert.deepEqual(
    buildHookInput(session, {
      event: "TaskCreated",
      taskId: "5",
      subject: "Ship it",
      description: "Tag and push",
    }),
    {
      ...common,
      hook_event_name: "TaskCreated",
      task_id: "5",
      task_subject: "Ship it",
      task_description: "Tag and push",
    },
  );
  assert.deepEqual(
    buildHookInput(session, {
      event: "TaskCompleted",
      taskId: "5",
      subject: "Ship it",
      description: "",
    }),
    { ...common, hook_event_name: "TaskCompleted", task_id: "5", task_subject: "Ship it" },
  );
});

Deno.test("PostToolUse and PostToolUseFailure inputs carry the call's duration_ms", () => {
  const call = { tool: "bash", input: { command: "ls" }, toolUseId: "t", durationMs: 42 };
  const post = buildHookInput(session, { event: "PostToolUse", ...call, response: {} });
  assert.equal((post as { duration_ms?: number }).duration_ms, 42);
  const failed = buildHookInput(session, { event: "PostToolUseFailure", ...call, error: "x" });
  assert.equal((failed as { duration_ms?: number }).duration_ms, 42);
});

Deno.test("PermissionRequest input names the tool as Claude Code does and suggests the rule; SubagentStart names the agent", () => {
  assert.deepEqual(
    buildHookInput(session, {
      event: "PermissionRequest",
      tool: "bash",
      input: { command: "npm test" },
      toolUseId: "t",
      suggestion: "Bash(npm test *)",
    }),
    {
      ...common,
      hook_event_name: "PermissionRequest",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      permission_suggestions: [{
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "npm test *" }],
        behavior: "allow",
        destination: "localSettings",
      }],
    },
  );
  assert.deepEqual(
    buildHookInput(session, { event: "SubagentStart", agentId: "explore-1", agentType: "Explore" }),
    { ...common, hook_event_name: "SubagentStart", agent_id: "explore-1", agent_type: "Explore" },
  );
});
