import assert from "node:assert/strict";
import {
  claudePluginsDir,
  installFor,
  parseInstalledPlugins,
  parseKnownMarketplaces,
} from "./installed_plugins.ts";

Deno.test("installed_plugins.json version 2: every installation of each plugin, by id", () => {
  const installs = parseInstalledPlugins(JSON.stringify({
    version: 2,
    plugins: {
      "demo@mkt": [
        {
          scope: "project",
          projectPath: "/work/p",
          installPath: "/h/.claude/plugins/cache/mkt/demo/1.1.0",
          version: "1.1.0",
          installedAt: "2026-01-01T00:00:00.000Z",
          lastUpdated: "2026-01-01T00:00:00.000Z",
          gitCommitSha: "abc",
        },
        { scope: "user", installPath: "/h/.claude/plugins/cache/mkt/demo/1.0.0", version: "1.0.0" },
        { scope: "user", installPath: "relative/is/left/out" },
      ],
    },
  }));
  assert.deepEqual(installs.get("demo@mkt"), [
    {
      installPath: "/h/.claude/plugins/cache/mkt/demo/1.1.0",
      scope: "project",
      projectPath: "/work/p",
      version: "1.1.0",
    },
    { installPath: "/h/.claude/plugins/cache/mkt/demo/1.0.0", scope: "user", version: "1.0.0" },
  ]);
});

Deno.test("installed_plugins.json version 1: one installation per id, the person's", () => {
  const installs = parseInstalledPlugins(JSON.stringify({
    version: 1,
    plugins: { "a@m": { version: "0.1.0", installPath: "/h/.claude/plugins/cache/m/a/0.1.0" } },
  }));
  assert.deepEqual(installs.get("a@m"), [
    { installPath: "/h/.claude/plugins/cache/m/a/0.1.0", scope: "user", version: "0.1.0" },
  ]);
});

Deno.test("installFor takes this project's installation, else the person's, never another project's", () => {
  const installs = [
    { installPath: "/c/other", scope: "project", projectPath: "/work/other" },
    { installPath: "/c/user", scope: "user" },
    { installPath: "/c/here", scope: "local", projectPath: "/work/p" },
  ];
  assert.equal(installFor(installs, "/work/p")?.installPath, "/c/here");
  assert.equal(installFor(installs, "/work/q")?.installPath, "/c/user");
  assert.equal(installFor(installs.slice(0, 1), "/work/q"), undefined);
});

Deno.test("a malformed installed_plugins.json throws saying why", () => {
  assert.throws(() => parseInstalledPlugins("{"), SyntaxError);
  assert.throws(() => parseInstalledPlugins("[]"), /not an object with "plugins"/);
});

Deno.test("known_marketplaces.json: each marketplace's folder and source", () => {
  const known = parseKnownMarketplaces(JSON.stringify({
    "mkt": {
      source: { source: "github", repo: "o/mkt" },
      installLocation: "/h/.claude/plugins/marketplaces/mkt",
      lastUpdated: "2026-01-01T00:00:00.000Z",
    },
    "bad": { source: { source: "directory", path: "/x" } },
  }));
  assert.deepEqual([...known.keys()], ["mkt"]);
  assert.deepEqual(known.get("mkt"), {
    installLocation: "/h/.claude/plugins/marketplaces/mkt",
    source: { source: "github", repo: "o/mkt" },
  });
});

Deno.test("Claude Code's plugins folder follows CLAUDE_CONFIG_DIR", () => {
  assert.equal(claudePluginsDir("/h", undefined), "/h/.claude/plugins");
  assert.equal(claudePluginsDir("/h", "/cfg"), "/cfg/plugins");
  assert.equal(claudePluginsDir(undefined, undefined), undefined);
});
