import { join } from "../../events/posix_path.ts";
import type { PluginRoot } from "../files/plugin_root.ts";
import { readRecordedFile } from "../files/recorded_file.ts";
import { realRoots } from "../files/start_bounds.ts";
import type { SettingsSource } from "../settings/settings.ts";

/** Largest hooks file of a plugin rein reads; a bigger one is reported and skipped. */
export const MAX_PLUGIN_HOOKS_FILE = 256 * 1024;

/**
 * The hooks files of `plugins` (`hooks/hooks.json`, then those the manifest names, each once), as
 * settings sources of scope `plugin` carrying the plugin's name and folder: recorded with the
 * settings, so replay reads what the run read. Each file is confined to its plugin's folder; one
 * that leads out of it (a symbolic link) or to one of `credentials`, or cannot be read, is
 * reported through `onNotice` and skipped; a missing one quietly. Reads the disk, live; never
 * throws.
 */
export async function readPluginHooks(
  plugins: readonly PluginRoot[],
  credentials: readonly string[],
  onNotice: (message: string) => void,
): Promise<SettingsSource[]> {
  const perPlugin = await Promise.all(plugins.map(async (plugin) => {
    const roots = await realRoots(plugin.root);
    const paths = [
      ...new Set([join(plugin.root, "hooks", "hooks.json"), ...plugin.parts?.hooks ?? []]),
    ];
    const notices: string[] = [];
    const files = await Promise.all(paths.map((path) =>
      readRecordedFile(path, roots, {
        source: "settings",
        file: "the plugin's hooks",
        folder: "the plugin's hooks",
        maxBytes: MAX_PLUGIN_HOOKS_FILE,
        credentials,
        onNotice: (message) => notices.push(message),
      })
    ));
    const sources = files.flatMap((file): SettingsSource[] =>
      file === undefined ? [] : [{
        scope: "plugin",
        path: file.path,
        text: file.text,
        plugin: plugin.name,
        pluginRoot: plugin.root,
      }]
    );
    return { sources, notices };
  }));
  for (const { notices } of perPlugin) for (const message of notices) onNotice(message);
  return perPlugin.flatMap(({ sources }) => sources);
}
