import assert from "node:assert/strict";
import type { SettingsSnapshot } from "../../events/event_types.ts";
import { recordedSettings } from "./recorded_settings.ts";

const PROJECT = JSON.stringify({
  permissions: { allow: ["Bash"], deny: ["Read(.env)"], ask: ["Edit"], defaultMode: "acceptEdits" },
  hooks: { Stop: [{ hooks: [{ type: "command", command: "evil" }] }] },
  env: { X: "1" },
  enableAllProjectMcpServers: true,
  model: "claude-haiku-4-5",
});
const USER = JSON.stringify({
  permissions: { allow: ["Read"] },
  hooks: { Stop: [{ hooks: [{ type: "command", command: "mine" }] }] },
  env: { Y: "2" },
});

function snapshot(trusted: boolean | undefined): SettingsSnapshot {
  return {
    sources: [
      { scope: "project", path: "/w/.claude/settings.json", text: PROJECT },
      { scope: "user", path: "/h/.claude/settings.json", text: USER },
    ],
    flags: {},
    home: "/h",
    interactive: false,
    ...(trusted === undefined ? {} : { trusted }),
  };
}

Deno.test("recordedSettings: an untrusted repository's allow rules, permissive mode, hooks, env and MCP approval are not applied; its deny and ask rules are", () => {
  const recorded = recordedSettings(snapshot(false));
  assert.deepEqual(recorded.settings.permissions, {
    allow: ["Read"],
    ask: ["Edit"],
    deny: ["Read(.env)"],
  });
  assert.equal(recorded.mode, "default");
  assert.deepEqual(recorded.settings.hooks, {
    Stop: [{ hooks: [{ type: "command", command: "mine" }] }],
  });
  assert.deepEqual(recorded.settings.env, { Y: "2" });
  assert.deepEqual(recorded.settings.other, {});
  assert.equal(recorded.settings.model, "claude-haiku-4-5");
  assert.deepEqual(recorded.ignored, [
    "permissions.allow",
    'defaultMode "acceptEdits"',
    "hooks",
    "env",
    "enableAllProjectMcpServers",
  ]);
});

Deno.test("recordedSettings: a trusted workspace, and a session recorded before trust, apply every file", () => {
  for (const trusted of [true, undefined]) {
    const recorded = recordedSettings(snapshot(trusted));
    assert.deepEqual(recorded.settings.permissions?.allow, ["Bash", "Read"]);
    assert.equal(recorded.mode, "acceptEdits");
    assert.equal(recorded.settings.hooks?.["Stop"]?.length, 2);
    assert.deepEqual(recorded.settings.env, { X: "1", Y: "2" });
    assert.equal(recorded.settings.other["enableAllProjectMcpServers"], true);
    assert.deepEqual(recorded.ignored, []);
  }
});

Deno.test("recordedSettings: an untrusted repository's statusLine (a command) is dropped, the person's kept", () => {
  const project = JSON.stringify({ statusLine: { type: "command", command: "evil" } });
  const user = JSON.stringify({ statusLine: { type: "command", command: "mine" } });
  const of = (trusted: boolean, sources: [string, string][]) =>
    recordedSettings({
      sources: sources.map(([scope, text]) => ({
        scope: scope as "project" | "user",
        path: `/${scope}.json`,
        text,
      })),
      flags: {},
      home: "/h",
      interactive: false,
      trusted,
    });
  const untrusted = of(false, [["project", project]]);
  assert.deepEqual(untrusted.settings.other, {});
  assert.deepEqual(untrusted.ignored, ["statusLine"]);
  assert.deepEqual(of(false, [["project", project], ["user", user]]).settings.other.statusLine, {
    type: "command",
    command: "mine",
  });
  assert.deepEqual(of(true, [["project", project]]).settings.other.statusLine, {
    type: "command",
    command: "evil",
  });
});

Deno.test("recordedSettings: an untrusted repository's enabledPlugins and extraKnownMarketplaces are dropped and named, the person's kept", () => {
  const project = JSON.stringify({
    enabledPlugins: { "evil@m": true, "mine@m": false },
    extraKnownMarketplaces: { m: { source: { source: "git", url: "file:///x.git" } } },
  });
  const user = JSON.stringify({ enabledPlugins: { "mine@m": true } });
  const of = (trusted: boolean) =>
    recordedSettings({
      sources: [
        { scope: "project", path: "/p.json", text: project },
        { scope: "user", path: "/u.json", text: user },
      ],
      flags: {},
      home: "/h",
      interactive: false,
      trusted,
    });
  const untrusted = of(false);
  assert.deepEqual(untrusted.ignored, ["enabledPlugins", "extraKnownMarketplaces"]);
  assert.deepEqual(untrusted.files[0]?.settings.other, {});
  assert.deepEqual(untrusted.files[1]?.settings.other, { enabledPlugins: { "mine@m": true } });
  assert.deepEqual(of(true).files[0]?.settings.other?.["enabledPlugins"], {
    "evil@m": true,
    "mine@m": false,
  });
});
