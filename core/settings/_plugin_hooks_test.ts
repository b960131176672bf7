import assert from "node:assert/strict";
import type { SettingsSnapshot } from "../../events/event_types.ts";
import { parsePluginHooks } from "./_plugin_hooks.ts";
import { recordedSettings } from "./recorded_settings.ts";

const HOOKS = JSON.stringify({
  description: "Format after edits",
  hooks: {
    PostToolUse: [{
      matcher: "Write|Edit",
      hooks: [{
        type: "command",
        command: "${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh --all",
        timeout: 30,
      }],
    }],
  },
});

Deno.test("parsePluginHooks reads Claude Code's {hooks} with ${CLAUDE_PLUGIN_ROOT} expanded and set in the command's environment", () => {
  const parsed = parsePluginHooks({
    scope: "plugin",
    path: "/p/fmt/hooks/hooks.json",
    text: HOOKS,
    plugin: "fmt",
    pluginRoot: "/p/fmt",
  });
  assert.deepEqual(parsed.diagnostics, []);
  assert.deepEqual(parsed.settings, {
    hooks: {
      PostToolUse: [{
        matcher: "Write|Edit",
        hooks: [{
          type: "command",
          command: "/p/fmt/scripts/fmt.sh --all",
          timeout: 30,
          env: { CLAUDE_PLUGIN_ROOT: "/p/fmt" },
        }],
      }],
    },
  });
});

Deno.test("parsePluginHooks: a file that is not JSON or has no hooks object gives one error naming it, and no hooks", () => {
  for (const text of ["{", '{"hooks": 3}', "[]"]) {
    const parsed = parsePluginHooks({ scope: "plugin", path: "/p/x/hooks/hooks.json", text });
    assert.deepEqual(parsed.settings, {});
    assert.equal(parsed.diagnostics.length, 1, text);
    assert.match(parsed.diagnostics[0]?.message ?? "", /"\/p\/x\/hooks\/hooks\.json"/);
    assert.equal(parsed.diagnostics[0]?.fatal, undefined);
  }
});

Deno.test("recordedSettings: a plugin's hooks apply in an untrusted folder (the person chose the plugin), after their own", () => {
  const snapshot: SettingsSnapshot = {
    sources: [
      {
        scope: "project",
        path: "/w/.claude/settings.json",
        text: JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: "command", command: "repo" }] }] },
        }),
      },
      {
        scope: "user",
        path: "/h/.claude/settings.json",
        text: JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: "command", command: "mine" }] }] },
        }),
      },
      {
        scope: "plugin",
        path: "/p/fmt/hooks/hooks.json",
        text: JSON.stringify({
          hooks: {
            Stop: [{ hooks: [{ type: "command", command: "${CLAUDE_PLUGIN_ROOT}/stop" }] }],
          },
        }),
        plugin: "fmt",
        pluginRoot: "/p/fmt",
      },
    ],
    flags: {},
    home: "/h",
    interactive: false,
    trusted: false,
  };
  const recorded = recordedSettings(snapshot);
  const commands = recorded.settings.hooks?.["Stop"]?.flatMap((m) => m.hooks.map((h) => h.command));
  assert.deepEqual(commands, ["mine", "/p/fmt/stop"]);
  assert.deepEqual(recorded.ignored, ["hooks"]);
});
