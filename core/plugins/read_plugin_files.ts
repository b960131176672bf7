import { join } from "../../events/posix_path.ts";
import type { RecordedFile } from "../../events/event_types.ts";
import { readRecordedFile } from "../files/recorded_file.ts";
import { realRoots, startBounds } from "../files/start_bounds.ts";
import type { FilePlace } from "../mechanism.ts";
import { MANIFEST_PATH } from "./plugin_manifest.ts";
import { PLUGINS_SOURCE } from "./plugin_set.ts";
import { MAX_MANIFEST_FILE } from "./read_plugin_root.ts";

/**
 * The manifest of each of `place.plugins`, as read now (live only), to record with the session
 * (source `plugins`, with the plugin's name): `<root>/.claude-plugin/plugin.json`, confined to the
 * plugin's folder; a plugin without one is recorded as its folder with no text, so the session
 * still says which plugins it used. A manifest that can no longer be read is reported through
 * `place.onNotice` and the plugin recorded as having none. Never throws.
 */
export async function readPluginFiles(place: FilePlace): Promise<RecordedFile[]> {
  const plugins = place.plugins ?? [];
  if (plugins.length === 0) return [];
  const bounds = await startBounds(place);
  return await Promise.all(plugins.map(async (plugin): Promise<RecordedFile> => {
    const file = await readRecordedFile(
      join(plugin.root, MANIFEST_PATH),
      await realRoots(plugin.root),
      {
        source: PLUGINS_SOURCE,
        file: "the plugin manifest",
        folder: "the plugin",
        maxBytes: MAX_MANIFEST_FILE,
        credentials: bounds.credentials,
        onNotice: place.onNotice,
      },
    );
    return file === undefined
      ? { source: PLUGINS_SOURCE, path: plugin.root, text: "", plugin: plugin.name }
      : { ...file, plugin: plugin.name };
  }));
}
