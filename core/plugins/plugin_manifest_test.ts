import assert from "node:assert/strict";
import { badPluginName, parseManifest } from "./plugin_manifest.ts";

const ROOT = "/p/formatter";
const PATH = `${ROOT}/.claude-plugin/plugin.json`;

Deno.test("parseManifest reads a published manifest: name, version, description, author and the paths it adds", () => {
  const parsed = parseManifest(
    PATH,
    JSON.stringify({
      name: "formatter",
      version: "2.1.0",
      description: "Formats code",
      author: { name: "Dev Team", email: "dev@example.com" },
      homepage: "https://example.com",
      commands: ["./custom/commands/special.md"],
      agents: "./custom/agents/",
      skills: "./custom/skills",
      hooks: "./config/hooks.json",
      mcpServers: "./mcp-config.json",
    }),
    ROOT,
  );
  assert.deepEqual(parsed, {
    ok: true,
    manifest: {
      name: "formatter",
      version: "2.1.0",
      description: "Formats code",
      author: "Dev Team",
      parts: {
        commands: [`${ROOT}/custom/commands/special.md`],
        agents: [`${ROOT}/custom/agents`],
        skills: [`${ROOT}/custom/skills`],
        hooks: [`${ROOT}/config/hooks.json`],
      },
      mcpServers: true,
    },
  });
});

Deno.test("parseManifest: inline hooks are read from the manifest itself; a text author is its name", () => {
  const parsed = parseManifest(
    PATH,
    JSON.stringify({ name: "f", author: "Casey", hooks: { PostToolUse: [] } }),
    ROOT,
  );
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.manifest.parts, { hooks: [PATH] });
  assert.equal(parsed.manifest.author, "Casey");
  assert.equal(parsed.manifest.mcpServers, false);
  // MCP servers are not run, so a path without "./" (which Claude Code's --plugin-dir users
  // write) does not cost the plugin its other parts.
  const mcp = parseManifest(PATH, JSON.stringify({ name: "f", mcpServers: ".mcp.json" }), ROOT);
  assert.ok(mcp.ok && mcp.manifest.mcpServers);
});

Deno.test("parseManifest refuses, in one line naming the file and the member, what it cannot use", () => {
  const cases: [unknown, RegExp][] = [
    [{}, /"name" text, found nothing/],
    [{ name: 7 }, /no "name" text, found 7/],
    [{ name: "a:b" }, /"name" "a:b" cannot name a plugin/],
    [{ name: "x", version: 2 }, /"version" is not a text, found 2/],
    [{ name: "x", author: 3 }, /"author" is neither/],
    [{ name: "x", commands: 42 }, /"commands" is neither a path nor a list of paths, found 42/],
    [{ name: "x", agents: ["agents/"] }, /"agents" path "agents\/" does not begin with "\.\/"/],
    [{ name: "x", skills: "./../other" }, /"skills" path "\.\/\.\.\/other" leads out/],
    [{ name: "x", mcpServers: 1 }, /"mcpServers" is neither/],
    [[1], /is not a JSON object/],
  ];
  for (const [json, why] of cases) {
    const parsed = parseManifest(PATH, JSON.stringify(json), ROOT);
    assert.equal(parsed.ok, false, JSON.stringify(json));
    if (parsed.ok) continue;
    assert.match(
      parsed.message,
      /^Skipped the plugin at "\/p\/formatter": "\/p\/formatter\/\.claude-plugin\/plugin\.json" /,
    );
    assert.match(parsed.message, why);
    assert.ok(!parsed.message.includes("\n"));
  }
  const broken = parseManifest(PATH, "{name:", ROOT);
  assert.ok(!broken.ok && /is not JSON/.test(broken.message));
});

Deno.test("badPluginName refuses what would break <plugin>:<part> or a path, and takes kebab-case", () => {
  for (const name of ["", "a:b", "a/b", "a\\b", "..", "a..b", ".hidden", "a b", "a\tb"]) {
    assert.notEqual(badPluginName(name), undefined, JSON.stringify(name));
  }
  for (const name of ["formatter", "code-review", "my_plugin2", "v1.2"]) {
    assert.equal(badPluginName(name), undefined, name);
  }
});
