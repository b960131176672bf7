import assert from "node:assert/strict";
import { join } from "node:path";
import { readPluginHooks } from "./read_plugin_hooks.ts";
import { readPluginRoot, readPluginRoots } from "./read_plugin_root.ts";

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

async function tempRoot(): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-plugins-" }));
}

Deno.test("readPluginRoot: a folder without a manifest is named after the folder; one with a manifest by its name, with the paths it adds", async () => {
  const root = await tempRoot();
  try {
    await Deno.mkdir(join(root, "bare-plugin", "commands"), { recursive: true });
    const bare = await readPluginRoot(join(root, "bare-plugin"), "--plugin-dir");
    assert.deepEqual(bare, {
      plugin: { name: "bare-plugin", root: join(root, "bare-plugin"), source: "--plugin-dir" },
    });
    await write(
      join(root, "dir", ".claude-plugin", "plugin.json"),
      JSON.stringify({ name: "named", commands: "./extra" }),
    );
    const named = await readPluginRoot(join(root, "dir"), "x@mkt");
    assert.deepEqual(named, {
      plugin: {
        name: "named",
        root: join(root, "dir"),
        source: "x@mkt",
        parts: { commands: [join(root, "dir", "extra")] },
      },
    });
    await write(
      join(root, "mcp", ".claude-plugin", "plugin.json"),
      JSON.stringify({ name: "mcp", mcpServers: ".mcp.json" }),
    );
    const mcp = await readPluginRoot(join(root, "mcp"), "--plugin-dir");
    assert.equal(mcp.plugin?.mcpServers, true);
    const missing = await readPluginRoot(join(root, "nope"), "--plugin-dir");
    assert.match(missing.notice ?? "", /^Skipped the plugin at ".*nope": there is no such folder$/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("readPluginRoot refuses a manifest that links out of the plugin's folder, and a folder name that cannot name a plugin", async () => {
  const root = await tempRoot();
  try {
    await write(join(root, "elsewhere.json"), JSON.stringify({ name: "sneaky" }));
    await Deno.mkdir(join(root, "p", ".claude-plugin"), { recursive: true });
    await Deno.symlink(
      join(root, "elsewhere.json"),
      join(root, "p", ".claude-plugin", "plugin.json"),
    );
    const linked = await readPluginRoot(join(root, "p"), "--plugin-dir");
    assert.match(linked.notice ?? "", /^Skipped the plugin at ".*\/p": .*outside/);
    await Deno.mkdir(join(root, "a..b"));
    const dots = await readPluginRoot(join(root, "a..b"), "--plugin-dir");
    assert.match(
      dots.notice ?? "",
      /no \.claude-plugin\/plugin\.json, and its folder's name "a\.\.b"/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("readPluginRoots skips a second plugin of the same name, naming both folders", async () => {
  const root = await tempRoot();
  try {
    for (const dir of ["one", "two"]) {
      await write(join(root, dir, ".claude-plugin", "plugin.json"), '{"name": "same"}');
    }
    const read = await readPluginRoots([join(root, "one"), join(root, "two")], "--plugin-dir");
    assert.deepEqual(read.plugins.map((p) => p.root), [join(root, "one")]);
    assert.deepEqual(read.notices, [
      `Skipped the plugin at "${join(root, "two")}": the plugin "same" at "${
        join(root, "one")
      }" has the same name and was given first`,
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("readPluginHooks refuses a hooks file that links out of the plugin's folder, naming it, and reads the others", async () => {
  const root = await tempRoot();
  try {
    await write(join(root, "outside.json"), '{"hooks": {"Stop": []}}');
    await Deno.mkdir(join(root, "evil", "hooks"), { recursive: true });
    await Deno.symlink(join(root, "outside.json"), join(root, "evil", "hooks", "hooks.json"));
    await write(join(root, "good", "hooks", "hooks.json"), '{"hooks": {}}');
    const notices: string[] = [];
    const sources = await readPluginHooks(
      [
        { name: "evil", root: join(root, "evil"), source: "--plugin-dir" },
        { name: "good", root: join(root, "good"), source: "--plugin-dir" },
      ],
      [],
      (message) => notices.push(message),
    );
    assert.deepEqual(sources.map((source) => source.plugin), ["good"]);
    assert.equal(notices.length, 1);
    assert.match(
      notices[0] ?? "",
      /^Skipped the plugin's hooks at ".*evil\/hooks\/hooks\.json": .*outside/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
