import assert from "node:assert/strict";
import { mergeSettings } from "./merge_settings.ts";
import type { HookMatcher, Settings } from "./settings.ts";

function hook(command: string, matcher?: string): HookMatcher {
  const hooks = [{ type: "command" as const, command }];
  return matcher === undefined ? { hooks } : { matcher, hooks };
}

Deno.test("local settings override project settings for the model", () => {
  const local: Partial<Settings> = { model: "claude-opus-4-5" };
  const project: Partial<Settings> = {
    model: "claude-sonnet-4-5",
    fallbackModel: "claude-haiku-4-5",
  };

  const settings = mergeSettings([local, project]);

  assert.equal(settings.model, "claude-opus-4-5");
  assert.equal(settings.fallbackModel, "claude-haiku-4-5");
});

Deno.test("a deny in the user file and an allow in the project file both survive the merge", () => {
  const project: Partial<Settings> = { permissions: { allow: ["Bash(rm -rf build)"] } };
  const user: Partial<Settings> = { permissions: { deny: ["Bash(rm *)"] } };

  const settings = mergeSettings([project, user]);

  assert.deepEqual(settings.permissions, { allow: ["Bash(rm -rf build)"], deny: ["Bash(rm *)"] });
});

Deno.test("rules repeated across files appear once, highest file first", () => {
  const cli: Partial<Settings> = { permissions: { allow: ["Read", "Bash(ls *)"] } };
  const local: Partial<Settings> = {
    permissions: { allow: ["Bash(ls *)", "Edit"], additionalDirectories: ["../a"] },
  };
  const user: Partial<Settings> = {
    permissions: { allow: ["Read", "Glob"], ask: ["WebFetch"], additionalDirectories: ["../a"] },
  };

  const settings = mergeSettings([cli, local, user]);

  assert.deepEqual(settings.permissions, {
    allow: ["Read", "Bash(ls *)", "Edit", "Glob"],
    ask: ["WebFetch"],
    additionalDirectories: ["../a"],
  });
});

Deno.test("the highest file that sets defaultMode decides it", () => {
  const local: Partial<Settings> = { permissions: { allow: ["Read"] } };
  const project: Partial<Settings> = { permissions: { defaultMode: "plan" } };
  const user: Partial<Settings> = { permissions: { defaultMode: "acceptEdits" } };

  assert.equal(mergeSettings([local, project, user]).permissions?.defaultMode, "plan");
});

Deno.test("hooks of one event from several files are all kept, highest file first", () => {
  const project: Partial<Settings> = {
    hooks: { PreToolUse: [hook("guard", "Bash")], Stop: [hook("notify")] },
  };
  const user: Partial<Settings> = { hooks: { PreToolUse: [hook("audit")] } };

  const settings = mergeSettings([project, user]);

  assert.deepEqual(settings.hooks, {
    PreToolUse: [hook("guard", "Bash"), hook("audit")],
    Stop: [hook("notify")],
  });
});

Deno.test("env variables merge by name, the highest file winning", () => {
  const local: Partial<Settings> = { env: { LOG: "debug" } };
  const user: Partial<Settings> = { env: { LOG: "info", REGION: "eu" } };

  assert.deepEqual(mergeSettings([local, user]).env, { LOG: "debug", REGION: "eu" });
});

Deno.test("unknown keys merge by name, the highest file winning", () => {
  const project: Partial<Settings> = { other: { statusLine: { command: "a" } } };
  const user: Partial<Settings> = { other: { statusLine: { command: "b" }, theme: "dark" } };

  assert.deepEqual(mergeSettings([project, user]).other, {
    statusLine: { command: "a" },
    theme: "dark",
  });
});

Deno.test("no files give settings with nothing but an empty other", () => {
  assert.deepEqual(mergeSettings([]), { other: {} });
  assert.deepEqual(mergeSettings([{}, {}]), { other: {} });
});

Deno.test("merging leaves the layers unchanged", () => {
  const project: Partial<Settings> = {
    permissions: { allow: ["Read"] },
    hooks: { Stop: [hook("a")] },
  };
  const user: Partial<Settings> = {
    permissions: { allow: ["Edit"] },
    hooks: { Stop: [hook("b")] },
  };
  const before = structuredClone([project, user]);

  mergeSettings([project, user]);

  assert.deepEqual([project, user], before);
});
