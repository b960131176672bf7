import assert from "node:assert/strict";
import type { Settings } from "../settings/mod.ts";
import { hookMatchersReady, runHooks, selectHooks } from "./run_hooks.ts";

const hooks: NonNullable<Settings["hooks"]> = {
  PreToolUse: [
    { matcher: "Bash", hooks: [{ type: "command", command: "bash-guard", timeout: 5 }] },
    { matcher: "Edit|Write", hooks: [{ type: "command", command: "format" }] },
    { matcher: "mcp__.*", hooks: [{ type: "command", command: "mcp-log" }] },
    { hooks: [{ type: "command", command: "log" }, { type: "command", command: "bash-guard" }] },
    { matcher: "(a+)+$", hooks: [{ type: "command", command: "never" }] },
  ],
  SessionStart: [
    { matcher: "startup", hooks: [{ type: "command", command: "fresh" }] },
    { matcher: "resume|compact", hooks: [{ type: "command", command: "again" }] },
  ],
  Stop: [{ matcher: "Bash", hooks: [{ type: "command", command: "check" }] }],
};

Deno.test("selectHooks picks a tool's hooks by its Claude Code or rein name, once each", async () => {
  await hookMatchersReady(hooks);
  const expected = [
    { event: "PreToolUse", matcher: "Bash", command: "bash-guard", timeoutMs: 5000 },
    { event: "PreToolUse", command: "log", timeoutMs: 60_000 },
  ];
  assert.deepEqual(selectHooks(hooks, "PreToolUse", "bash"), expected);
  assert.deepEqual(selectHooks(hooks, "PreToolUse", "Bash"), expected);
  assert.deepEqual(selectHooks(hooks, "PreToolUse", "write_file").map((hook) => hook.command), [
    "format",
    "log",
    "bash-guard",
  ]);
  assert.deepEqual(
    selectHooks(hooks, "PreToolUse", "mcp__db__query").map((hook) => hook.command),
    ["mcp-log", "log", "bash-guard"],
  );
});

Deno.test("selectHooks matches SessionStart groups on the source", () => {
  assert.deepEqual(selectHooks(hooks, "SessionStart", "compact").map((hook) => hook.command), [
    "again",
  ]);
});

Deno.test("selectHooks ignores matchers for events without one", () => {
  assert.deepEqual(selectHooks(hooks, "Stop", undefined).map((hook) => hook.command), ["check"]);
});

Deno.test("selectHooks finds nothing without hooks for the event", () => {
  assert.deepEqual(selectHooks(undefined, "Stop", undefined), []);
  assert.deepEqual(selectHooks(hooks, "SessionEnd", undefined), []);
});

Deno.test("runHooks runs the selected hooks and combines their verdicts in settings order", async () => {
  const settings: Settings["hooks"] = {
    UserPromptSubmit: [{
      hooks: [
        { type: "command", command: "sleep 0.2; echo first" },
        { type: "command", command: "echo second" },
      ],
    }],
  };
  const { runs, verdict } = await runHooks({
    hooks: settings,
    event: "UserPromptSubmit",
    matchValue: undefined,
    input: { prompt: "hi" },
    cwd: Deno.cwd(),
    projectDir: Deno.cwd(),
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
  });
  assert.deepEqual(runs.map(({ command, stdout }) => [command, stdout]), [
    ["sleep 0.2; echo first", "first\n"],
    ["echo second", "second\n"],
  ]);
  assert.deepEqual(verdict.additionalContext, ["first", "second"]);
});
