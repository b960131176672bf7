import assert from "node:assert/strict";
import { parseSettings } from "./parse_settings.ts";

const PATH = "/p/.claude/settings.json";

function parse(hooks: unknown) {
  return parseSettings({ scope: "project", path: PATH, text: JSON.stringify({ hooks }) });
}

function messages(hooks: unknown): string[] {
  return parse(hooks).diagnostics.map((d) => d.message.replace(`"${PATH}"`, "FILE"));
}

const LINT = { type: "command", command: "deno lint" };

Deno.test("hooks are read with and without matcher and timeout", () => {
  const hooks = {
    PreToolUse: [
      { matcher: "Edit|Write", hooks: [{ type: "command", command: "check", timeout: 30 }] },
      { matcher: "mcp__.*", hooks: [LINT] },
    ],
    Stop: [{ hooks: [LINT] }],
  };

  assert.deepEqual(parse(hooks), { settings: { hooks }, diagnostics: [] });
});

Deno.test("an unknown hook event is warned about and kept", () => {
  const { settings, diagnostics } = parse({ PreToolUs: [{ hooks: [LINT] }] });

  assert.deepEqual(settings.hooks, { PreToolUs: [{ hooks: [LINT] }] });
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0]?.severity, "warning");
  assert.match(
    diagnostics[0]?.message ?? "",
    /^Unknown hook event in ".*": hooks\.PreToolUs is not one of "PreToolUse", .*, so its hooks never run$/,
  );
});

Deno.test("a hook that is not a command is dropped and its siblings kept", () => {
  const hooks = {
    Stop: [{ hooks: [{ type: "prompt", prompt: "done?" }, LINT, { type: "command" }, "ls"] }],
  };

  assert.deepEqual(parse(hooks).settings.hooks, { Stop: [{ hooks: [LINT] }] });
  assert.deepEqual(messages(hooks), [
    `Invalid settings in FILE: hooks.Stop[0].hooks[0].type must be "command", found "prompt"`,
    `Invalid settings in FILE: hooks.Stop[0].hooks[2].command is missing ` +
    `(it must be a non-empty string)`,
    `Invalid settings in FILE: hooks.Stop[0].hooks[3] must be an object like ` +
    `{"type": "command", "command": "..."}, found "ls"`,
  ]);
});

Deno.test("a matcher that is not a string drops its group and not the others", () => {
  const hooks = {
    PreToolUse: [{ matcher: ["Bash"], hooks: [LINT] }, { matcher: "Bash", hooks: [LINT] }],
  };

  assert.deepEqual(parse(hooks).settings.hooks, {
    PreToolUse: [{ matcher: "Bash", hooks: [LINT] }],
  });
  assert.deepEqual(messages(hooks), [
    `Invalid settings in FILE: hooks.PreToolUse[0].matcher must be a string, found ["Bash"]`,
  ]);
});

Deno.test("a matcher that is not a valid regular expression is reported", () => {
  const hooks = { PostToolUse: [{ matcher: "Edit(", hooks: [LINT] }] };

  assert.deepEqual(parse(hooks).settings.hooks, { PostToolUse: [] });
  assert.match(
    messages(hooks)[0] ?? "",
    /^Invalid settings in FILE: hooks\.PostToolUse\[0\]\.matcher must be a valid regular expression, found "Edit\(": .+/,
  );
});

Deno.test("a bad timeout is reported and the hook still runs with the default timeout", () => {
  const hooks = { Stop: [{ hooks: [{ ...LINT, timeout: -5 }, { ...LINT, timeout: "60" }] }] };

  assert.deepEqual(parse(hooks).settings.hooks, { Stop: [{ hooks: [LINT, LINT] }] });
  assert.deepEqual(messages(hooks), [
    `Invalid settings in FILE: hooks.Stop[0].hooks[0].timeout must be a positive number of ` +
    `seconds, found -5; the hook runs with the default timeout`,
    `Invalid settings in FILE: hooks.Stop[0].hooks[1].timeout must be a positive number of ` +
    `seconds, found "60"; the hook runs with the default timeout`,
  ]);
});

Deno.test("an event whose value is not an array, or a group without hooks, is reported", () => {
  const hooks = { Stop: { hooks: [LINT] }, SessionStart: [{ matcher: "startup" }] };

  assert.deepEqual(parse(hooks).settings.hooks, { SessionStart: [] });
  assert.deepEqual(messages(hooks), [
    `Invalid settings in FILE: hooks.Stop must be an array of matchers, ` +
    `found {"hooks":[{"type":"command","command":"deno lint"}]}`,
    `Invalid settings in FILE: hooks.SessionStart[0].hooks is missing ` +
    `(it must be an array of hooks)`,
  ]);
});

Deno.test("hooks that are not an object are reported and dropped", () => {
  assert.deepEqual(messages([LINT]), [
    `Invalid settings in FILE: hooks must be an object, found [{"type":"command","command":"deno lint"}]`,
  ]);
});

Deno.test("PermissionRequest and SubagentStart hooks are known; Setup hooks are kept and said not to run, in one line", () => {
  const known = parse({
    PermissionRequest: [{ matcher: "Bash", hooks: [LINT] }],
    SubagentStart: [{ hooks: [LINT] }],
  });
  assert.deepEqual(known.diagnostics, []);
  assert.deepEqual(messages({ Setup: [{ matcher: "init", hooks: [LINT] }] }), [
    "Hook event rein does not run in FILE: hooks.Setup: Claude Code runs Setup hooks for " +
    "--init, --init-only and --maintenance, which rein does not have, so they never run here",
  ]);
});
