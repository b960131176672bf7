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
}
