/**
 * A plugin folder's parts read by each mechanism from `FilePlace.plugins`: commands (its
 * `commands/` and the files its manifest adds), agents, skills, hooks and the manifest, each
 * confined to the plugin's folder (a link out of it is reported and not read), recorded with the
 * plugin's name and named `<plugin>:<name>`; a bare command name finds a plugin's command while
 * no other command has it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readCommandFiles } from "../core/commands/read_command_files.ts";
import { commandSet, findCommand } from "../core/commands/command_set.ts";
import { readAgentFiles } from "../core/agents/read_agent_files.ts";
import { agentSet } from "../core/agents/agent_set.ts";
import { readSkillFiles } from "../core/skills/read_skill_files.ts";
import { skillSet } from "../core/skills/skill_set.ts";
import { readPluginHooks } from "../core/plugins/read_plugin_hooks.ts";
import { readPluginRoots } from "../core/plugins/read_plugin_root.ts";
import { readPluginFiles } from "../core/plugins/read_plugin_files.ts";
import { pluginSet } from "../core/plugins/plugin_set.ts";

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

async function tempRoot(): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-plugins-" }));
}

Deno.test("a plugin's commands, agents, skills, hooks and manifest are read confined to its folder, recorded with its name and named <plugin>:<name>", async () => {
  const root = await tempRoot();
  try {
    const ws = join(root, "ws");
    const home = join(root, "home");
    const plugin = join(root, "fmt");
    await Deno.mkdir(join(ws, ".claude", "commands"), { recursive: true });
    await Deno.mkdir(home);
    await write(
      join(plugin, ".claude-plugin", "plugin.json"),
      JSON.stringify({
        name: "fmt",
        version: "1.0.0",
        commands: ["./extra/special.md"],
        agents: "./more-agents",
        skills: "./one-skill",
      }),
    );
    await write(
      join(plugin, "commands", "run.md"),
      "---\ndescription: Run it\n---\nRun $ARGUMENTS\n",
    );
    await write(join(plugin, "commands", "review", "deep.md"), "Deep review\n");
    await write(join(plugin, "extra", "special.md"), "Special\n");
    await write(join(ws, ".claude", "commands", "deep.md"), "The project's deep\n");
    await write(join(root, "secret.md"), "SECRET\n");
    await Deno.symlink(join(root, "secret.md"), join(plugin, "commands", "leak.md"));
    await write(
      join(plugin, "agents", "checker.md"),
      "---\nname: checker\ndescription: Checks\n---\nCheck.\n",
    );
    await write(
      join(plugin, "more-agents", "helper.md"),
      "---\nname: helper\ndescription: Helps\n---\nHelp.\n",
    );
    await write(
      join(plugin, "skills", "tidy", "SKILL.md"),
      "---\ndescription: Tidy up\n---\nTidy.\n",
    );
    await write(
      join(plugin, "one-skill", "SKILL.md"),
      "---\nname: solo\ndescription: Solo\n---\nS.\n",
    );
    await write(join(plugin, "hooks", "hooks.json"), '{"hooks": {"Stop": []}}');
    const read = await readPluginRoots([plugin], "--plugin-dir");
    const notices: string[] = [];
    const place = {
      workspace: ws,
      home,
      plugins: read.plugins,
      onNotice: (m: string) => notices.push(m),
    };
    const commandFiles = await readCommandFiles(place);
    const commands = commandSet(commandFiles, ws).items;
    assert.deepEqual(commands.map((c) => [c.name, c.scope, c.namespace, c.plugin ?? ""]), [
      ["deep", "project", "", ""],
      ["fmt:run", "plugin", "", "fmt"],
      ["fmt:deep", "plugin", "review", "fmt"],
      ["fmt:special", "plugin", "", "fmt"],
    ]);
    assert.ok(
      commandFiles.filter((f) => f.path.startsWith(plugin)).every((f) => f.plugin === "fmt"),
    );
    // The bare name finds a plugin's command while no other has it; the project's wins its own.
    assert.equal(findCommand(commands, "run")?.name, "fmt:run");
    assert.equal(findCommand(commands, "deep")?.name, "deep");
    assert.equal(
      findCommand(commands, "fmt:deep")?.path,
      join(plugin, "commands", "review", "deep.md"),
    );
    assert.equal(findCommand(commands, "nothing"), undefined);
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.match(notices[0] ?? "", /Skipped the command at ".*fmt\/commands\/leak\.md": .*outside/);
    const agents = agentSet(await readAgentFiles(place)).items.map((a) => a.name);
    assert.ok(agents.includes("fmt:checker") && agents.includes("fmt:helper"), agents.join());
    const skills = skillSet(await readSkillFiles(place, join(root, "bundled"))).items;
    assert.deepEqual(skills.map((s) => s.name), ["fmt:tidy", "fmt:solo"]);
    const hooks = await readPluginHooks(read.plugins, [], (m) => notices.push(m));
    assert.deepEqual(hooks, [{
      scope: "plugin",
      path: join(plugin, "hooks", "hooks.json"),
      text: '{"hooks": {"Stop": []}}',
      plugin: "fmt",
      pluginRoot: plugin,
    }]);
    const manifests = await readPluginFiles(place);
    assert.deepEqual(pluginSet(manifests), [{
      name: "fmt",
      root: plugin,
      version: "1.0.0",
      mcpServers: false,
    }]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
