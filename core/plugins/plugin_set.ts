import type { RecordedFile } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";
import { MANIFEST_PATH, parseManifest } from "./plugin_manifest.ts";

/** The `source` of the files the plugins mechanism records (each plugin's manifest). */
export const PLUGINS_SOURCE = "plugins";

/** A plugin a session used, as its recorded manifest gives it. */
export interface UsedPlugin {
  name: string;
  /** Its folder. */
  root: string;
  version?: string;
  description?: string;
  author?: string;
  /** Whether its manifest names MCP servers (or it has a `.mcp.json`), which rein does not run. */
  mcpServers: boolean;
}

const SUFFIX = `/${MANIFEST_PATH}`;

/**
 * The plugins of `files` (the recorded manifests, source `plugins`, in order): a manifest's
 * path is `<root>/.claude-plugin/plugin.json`; a plugin without one is recorded as its folder with
 * no text. A file that no longer parses is left out. Pure.
 */
export function pluginSet(files: readonly RecordedFile[]): UsedPlugin[] {
  const plugins: UsedPlugin[] = [];
  for (const file of files) {
    if (file.source !== PLUGINS_SOURCE || file.plugin === undefined) continue;
    if (!file.path.endsWith(SUFFIX)) {
      plugins.push({ name: file.plugin, root: file.path, mcpServers: false });
      continue;
    }
    const root = file.path.slice(0, -SUFFIX.length);
    const parsed = parseManifest(file.path, file.text, root);
    if (!parsed.ok) continue;
    const { version, description, author, mcpServers } = parsed.manifest;
    plugins.push({
      name: file.plugin,
      root,
      ...(version === undefined ? {} : { version }),
      ...(description === undefined ? {} : { description }),
      ...(author === undefined ? {} : { author }),
      mcpServers,
    });
  }
  return plugins;
}

const parsedSets = new WeakMap<readonly RecordedFile[], UsedPlugin[]>();

/**
 * The plugins `session` recorded at its start or its last resume (none for an unknown session
 * or an older log). Pure; parsed once per recorded list of files.
 */
export function pluginsOf(state: State, session: string): readonly UsedPlugin[] {
  const files = state.sessions.byId[session]?.files;
  if (!files || files.length === 0) return [];
  let plugins = parsedSets.get(files);
  if (!plugins) {
    plugins = pluginSet(files);
    parsedSets.set(files, plugins);
  }
  return plugins;
}
