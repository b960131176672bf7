import assert from "node:assert/strict";
import { parseSettings } from "./parse_settings.ts";

const PATH = "/p/.claude/settings.json";

function parse(permissions: unknown) {
  return parseSettings({ scope: "project", path: PATH, text: JSON.stringify({ permissions }) });
}

Deno.test("a malformed allow rule is reported and the other rules still load", () => {
  const { settings, diagnostics } = parse({
    allow: ["Read", "Bash(git status)", 42, "Edit(src/**)"],
    deny: ["Bash(rm *)"],
  });

  assert.deepEqual(settings.permissions, {
    allow: ["Read", "Bash(git status)", "Edit(src/**)"],
    deny: ["Bash(rm *)"],
  });
  assert.deepEqual(diagnostics, [{
    path: PATH,
    severity: "error",
    message: `Invalid settings in "${PATH}": permissions.allow[2] must be a string, found 42`,
  }]);
});

Deno.test("a permission list that is not an array is reported and the other lists still load", () => {
  const { settings, diagnostics } = parse({ deny: "Bash(rm *)", ask: ["Bash(git push *)"] });

  assert.deepEqual(settings.permissions, { ask: ["Bash(git push *)"] });
  assert.deepEqual(diagnostics.map((d) => d.message), [
    `Invalid settings in "${PATH}": permissions.deny must be an array of strings, ` +
    `found "Bash(rm *)"`,
  ]);
});

Deno.test("an unknown defaultMode is reported with the valid modes", () => {
  const { settings, diagnostics } = parse({
    defaultMode: "yolo",
    additionalDirectories: ["../lib"],
  });

  assert.deepEqual(settings.permissions, { additionalDirectories: ["../lib"] });
  assert.deepEqual(diagnostics.map((d) => d.message), [
    `Invalid settings in "${PATH}": permissions.defaultMode must be one of "default", ` +
    `"acceptEdits", "plan", "dontAsk", "bypassPermissions", found "yolo"`,
  ]);
});

Deno.test("a misspelt permissions key is warned about and ignored", () => {
  const { settings, diagnostics } = parse({ denny: ["Bash(rm *)"] });

  assert.deepEqual(settings.permissions, {});
  assert.deepEqual(diagnostics.map((d) => [d.severity, d.message]), [[
    "warning",
    `Unknown permissions key in "${PATH}": permissions.denny is not one of "allow", "ask", ` +
    `"deny", "additionalDirectories", "defaultMode", so rein ignores it`,
  ]]);
});

Deno.test("permissions that are not an object are reported and dropped", () => {
  const { settings, diagnostics } = parse(["Bash"]);

  assert.equal(settings.permissions, undefined);
  assert.deepEqual(diagnostics.map((d) => d.message), [
    `Invalid settings in "${PATH}": permissions must be an object, found ["Bash"]`,
  ]);
});
