import { join } from "node:path";
import type { PluginRoot } from "../core/plugins/plugin_root.ts";
import { readPluginHooks } from "../core/plugins/read_plugin_hooks.ts";
import { readPluginRoots } from "../core/plugins/read_plugin_root.ts";
import { startBounds } from "../core/files/start_bounds.ts";
import type { SettingsSource } from "../core/settings/settings.ts";

/** The plugins a run uses, their hooks files to record with the settings, and what is unused. */
export interface UsedPlugins {
  plugins: PluginRoot[];
  /** Their hooks files, as settings sources of scope `plugin`. */
  hooks: SettingsSource[];
  /** What of theirs rein does not use, for the one line of unused settings: `.mcp.json (name)`. */
  unusedFiles: string[];
}

/**
 * The plugins of the folders `dirs` (`--plugin-dir`, resolved, in order): each read and checked
 * (core/plugins' `readPluginRoots`: a bad manifest, a bad name or a second plugin of one name is
 * skipped with one line through `place.onNotice`), their hooks files read confined to their
 * folders, and their MCP servers (`.mcp.json`) named as unused. Reads the disk, live; never throws.
 */
export async function usedPlugins(
  dirs: readonly string[],
  place: {
    workspace: string;
    home: string | undefined;
    credentials: readonly string[];
    onNotice(message: string): void;
  },
): Promise<UsedPlugins> {
  if (dirs.length === 0) return { plugins: [], hooks: [], unusedFiles: [] };
  const { credentials } = await startBounds(place);
  const read = await readPluginRoots(dirs, "--plugin-dir", { credentials });
  for (const message of read.notices) place.onNotice(message);
  const hooks = await readPluginHooks(read.plugins, credentials, place.onNotice);
  const mcp = await Promise.all(
    read.plugins.map((plugin) =>
      Deno.lstat(join(plugin.root, ".mcp.json")).then(
        () => [`.mcp.json (plugin ${plugin.name})`],
        () => [],
      )
    ),
  );
  return { plugins: read.plugins, hooks, unusedFiles: mcp.flat() };
}
