import assert from "node:assert/strict";
import { unusedSettingsNotice } from "./unused_settings.ts";

const source = (path: string, settings: unknown) => ({
  scope: "project" as const,
  path,
  text: JSON.stringify(settings),
});

Deno.test("every unused setting and file is named once, in one line", () => {
  const notice = unusedSettingsNotice(
    [
      source("/p/.claude/settings.json", {
        permissions: { allow: ["Bash"] },
        enabledPlugins: { "x@y": true },
        cleanupPeriodDays: 30,
        statusLine: { type: "command", command: "echo hi" },
        includeCoAuthoredBy: false,
      }),
      source("/h/.claude/settings.json", { outputStyle: "Explanatory", statusLine: {}, env: {} }),
      { scope: "local" as const, path: "/p/.claude/settings.local.json", text: "{ not json" },
    ],
    [".mcp.json"],
  );
  assert.equal(
    notice,
    "rein does not use these Claude Code settings and files, so they do nothing here: " +
      "cleanupPeriodDays, includeCoAuthoredBy, outputStyle, .mcp.json",
  );
  assert.equal(notice?.includes("\n"), false);
});

Deno.test("settings rein uses give no notice", () => {
  assert.equal(
    unusedSettingsNotice([
      source("/p/s.json", {
        permissions: {},
        hooks: {},
        sandbox: {},
        statusLine: {},
        enabledPlugins: {},
        extraKnownMarketplaces: {},
      }),
    ]),
    undefined,
  );
});
