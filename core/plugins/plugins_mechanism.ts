import type { Mechanism } from "../mechanism.ts";
import { readPluginFiles } from "./read_plugin_files.ts";

/**
 * Claude Code plugin folders (`--plugin-dir DIR`, enabled plugins): each plugin's manifest is read
 * when a session starts or resumes and recorded with it (source `plugins`), so `/plugin` and
 * stream-json's `init.plugins` say which plugins the session used, in replay too. The plugins'
 * commands, agents, skills and hooks are read by those mechanisms (`FilePlace.plugins`) and the
 * settings (hooks), named `<plugin>:<name>`.
 */
export function pluginsMechanism(): Mechanism {
  return {
    name: "plugins",
    readFiles: (place) => readPluginFiles(place),
  };
}
