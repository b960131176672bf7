import { join } from "../events/posix_path.ts";
import type { PluginRoot } from "../core/plugins/plugin_root.ts";
import { readPluginHooks } from "../core/plugins/read_plugin_hooks.ts";
import { readPluginRoots } from "../core/plugins/read_plugin_root.ts";
import { startBounds } from "../core/files/start_bounds.ts";
import type { SettingsSource } from "../core/settings/settings.ts";
import { resolveEnabledPlugins } from "../core/plugins/enabled_plugins.ts";
import { appliedSettingsFiles } from "../core/plugins/enabled_plugins_settings.ts";
import { reinPluginCache } from "../core/plugins/marketplace_clone.ts";

/** The plugins a run uses, their hooks files to record with the settings, and what is unused. */
export interface UsedPlugins {
  plugins: PluginRoot[];
  /** Their hooks files, as settings sources of scope `plugin`. */
  hooks: SettingsSource[];
  /** What of theirs rein does not use, for the one line of unused settings: `.mcp.json (name)`. */
  unusedFiles: string[];
}

/**
 * The plugins of the folders `dirs` (`--plugin-dir`, resolved, in order), then those the settings
 * enable (`place.settings`, core/plugins' `resolveEnabledPlugins`): each read and checked
 * (core/plugins' `readPluginRoots`: a bad manifest, a bad name or a second plugin of one name is
 * skipped with one line through `place.onNotice`), their hooks files read confined to their
 * folders, and their MCP servers (`.mcp.json`) named as unused. Reads the disk (and clones a git
 * marketplace the settings name, once), live; never throws.
 */
export async function usedPlugins(
  dirs: readonly string[],
  place: {
    workspace: string;
    home: string | undefined;
    credentials: readonly string[];
    onNotice(message: string): void;
    /**
     * The settings files read (highest precedence first), whether the workspace is trusted, and
     * the environment (CLAUDE_CONFIG_DIR, XDG_CACHE_HOME): the plugins they enable
     * (`enabledPlugins`) come after the `dirs` ones (core/plugins' `resolveEnabledPlugins`).
     */
    settings?: {
      sources: readonly SettingsSource[];
      trusted: boolean;
      env: (name: string) => string | undefined;
    };
  },
): Promise<UsedPlugins> {
  const enabling = place.settings;
  const files = enabling === undefined
    ? []
    : appliedSettingsFiles(enabling.sources, enabling.trusted);
  const enables = files.some((file) => file.settings.other?.["enabledPlugins"] !== undefined);
  if (dirs.length === 0 && !enables) return { plugins: [], hooks: [], unusedFiles: [] };
  const { credentials } = await startBounds(place);
  const given = dirs.length === 0
    ? { plugins: [], notices: [] }
    : await readPluginRoots(dirs, "--plugin-dir", { credentials });
  for (const message of given.notices) place.onNotice(message);
  const enabled = enabling === undefined || !enables
    ? { plugins: [], notices: [] }
    : await resolveEnabledPlugins({
      files,
      workspace: place.workspace,
      home: place.home,
      claudeConfigDir: enabling.env("CLAUDE_CONFIG_DIR"),
      cache: reinPluginCache(place.home, enabling.env("XDG_CACHE_HOME")),
      credentials,
      before: given.plugins,
    });
  for (const message of enabled.notices) place.onNotice(message);
  const read = { plugins: [...given.plugins, ...enabled.plugins] };
  if (read.plugins.length === 0) return { plugins: [], hooks: [], unusedFiles: [] };
  const hooks = await readPluginHooks(read.plugins, credentials, place.onNotice);
  const mcp = await Promise.all(
    read.plugins.map((plugin) =>
      plugin.mcpServers
        ? [`mcpServers (plugin ${plugin.name})`]
        : Deno.lstat(join(plugin.root, ".mcp.json")).then(
          () => [`.mcp.json (plugin ${plugin.name})`],
          () => [],
        )
    ),
  );
  return { plugins: read.plugins, hooks, unusedFiles: mcp.flat() };
}
