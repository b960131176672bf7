import { agentTypesOf } from "../../core/agents/agent_set.ts";
import { commandsOf } from "../../core/commands/command_set.ts";
import type { PluginRoot } from "../../core/plugins/plugin_root.ts";
import { pluginsOf } from "../../core/plugins/plugin_set.ts";
import { recordedSettings } from "../../core/settings/recorded_settings.ts";
import { skillsOf } from "../../core/skills/skill_set.ts";
import type { State } from "../../core/state/state.ts";

/**
 * `/plugin`: the plugins `session` uses, each with its version, where it came from (`given`, the
 * runtime's list: `--plugin-dir`, an enabled plugin) and its folder, and what it contributes:
 * how many commands, agents, skills and hook commands, as the session recorded them. Pure.
 */
export function pluginsReport(
  state: State,
  session: string,
  given: readonly PluginRoot[] = [],
): string {
  const plugins = pluginsOf(state, session);
  if (plugins.length === 0) {
    return "No plugins in use. Give a plugin folder with --plugin-dir DIR.";
  }
  const commands = commandsOf(state, session);
  const agents = agentTypesOf(state, session);
  const skills = skillsOf(state, session);
  const hooks = pluginHookCounts(state, session);
  const lines = ["Plugins in use:"];
  for (const plugin of plugins) {
    const prefix = `${plugin.name}:`;
    const counts = [
      count(commands.filter((command) => command.plugin === plugin.name).length, "command"),
      count(agents.filter((agent) => agent.name.startsWith(prefix)).length, "agent"),
      count(skills.filter((skill) => skill.name.startsWith(prefix)).length, "skill"),
      count(hooks.get(plugin.name) ?? 0, "hook"),
    ];
    const source = given.find((root) => root.name === plugin.name)?.source;
    lines.push(
      `  ${plugin.name}${plugin.version ? ` ${plugin.version}` : ""}  (${
        source ?? "recorded"
      }: ${plugin.root})`,
      `    ${counts.join(", ")}${plugin.description ? ` — ${plugin.description}` : ""}`,
    );
  }
  return lines.join("\n");
}

/** How many hook commands each plugin's hooks files gave the session, by plugin name. Pure. */
function pluginHookCounts(state: State, session: string): Map<string, number> {
  const counts = new Map<string, number>();
  const snapshot = state.sessions.byId[session]?.settings;
  if (!snapshot) return counts;
  const recorded = recordedSettings(snapshot);
  recorded.files.forEach((file, index) => {
    const plugin = snapshot.sources[index]?.plugin;
    if (file.scope !== "plugin" || plugin === undefined) return;
    const n = Object.values(file.settings.hooks ?? {}).flat()
      .reduce((sum, matcher) => sum + matcher.hooks.length, 0);
    counts.set(plugin, (counts.get(plugin) ?? 0) + n);
  });
  return counts;
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}
