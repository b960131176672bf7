/**
 * One plugin the session uses: where its folder is and why it is used. Defined here, beside
 * `FilePlace`, so the readers of commands, skills and agents can take it; `core/plugins/` exports it.
 */
export interface PluginRoot {
  /** The plugin's name (plugin.json "name", else the folder's name): the namespace of its parts. */
  name: string;
  /** Absolute path of the plugin's folder (the one holding .claude-plugin/plugin.json). */
  root: string;
  /** Where it came from: "--plugin-dir", or "<plugin>@<marketplace>" for an enabled one. */
  source: string;
  /**
   * The paths its manifest adds to the default folders (`commands`, `agents`, `skills`, `hooks`
   * in plugin.json), absolute and inside `root`; absent when it names none. `readPluginRoot`
   * (core/plugins) fills it from the manifest.
   */
  parts?: PluginParts;
  /** True when its manifest names MCP servers (`mcpServers`), which rein does not run yet. */
  mcpServers?: boolean;
}

/** What a plugin's manifest adds to its default folders: absolute paths inside its folder. */
export interface PluginParts {
  /** `.md` files or folders of them, beyond `commands/`. */
  commands?: readonly string[];
  /** `.md` files or folders of them, beyond `agents/`. */
  agents?: readonly string[];
  /** Folders of `<name>/SKILL.md` (or a skill's own folder), beyond `skills/`. */
  skills?: readonly string[];
  /**
   * Hook files (`{"hooks": {...}}`), beyond `hooks/hooks.json`; the manifest itself when it holds
   * its hooks inline.
   */
  hooks?: readonly string[];
}

/**
 * The folders and files of `plugin` that hold its parts of `kind`: the default folder
 * (`<root>/commands`, …) first, then what its manifest adds, each once. Pure.
 */
export function pluginPartPaths(
  plugin: PluginRoot,
  kind: "commands" | "agents" | "skills",
): string[] {
  const root = plugin.root.replace(/\/+$/, "");
  return [...new Set([`${root}/${kind}`, ...plugin.parts?.[kind] ?? []])];
}
