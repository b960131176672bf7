import { basename, join, resolve } from "../../events/posix_path.ts";
import type { PluginRoot } from "../files/plugin_root.ts";
import { readRecordedFile } from "../files/recorded_file.ts";
import { realRoots } from "../files/start_bounds.ts";
import { badPluginName, MANIFEST_PATH, parseManifest } from "./plugin_manifest.ts";

/** Largest plugin.json rein reads; a bigger one is reported and the plugin skipped. */
export const MAX_MANIFEST_FILE = 64 * 1024;

/** A plugin folder read: the plugin, or why it cannot be used (one line). */
export type ReadPlugin = { plugin: PluginRoot; notice?: undefined } | {
  plugin?: undefined;
  notice: string;
};

/**
 * The plugin in the folder `dir` (resolved against the current directory), used because of
 * `source` ("--plugin-dir", "<plugin>@<marketplace>"): its name is its manifest's
 * (`.claude-plugin/plugin.json`), else the folder's, as in Claude Code; `parts` holds the paths
 * its manifest adds. Refused with one line naming the folder: a folder that is missing or not a
 * folder, a manifest that leads out of the folder (a symbolic link), to a credential store, or
 * cannot be used (see `parseManifest`), a name with `:`, `/`, `..` in it. Reads the disk, live;
 * never throws.
 */
export async function readPluginRoot(
  dir: string,
  source: string,
  credentials: readonly string[] = [],
): Promise<ReadPlugin> {
  const given = resolve(dir);
  let root: string;
  try {
    const info = await Deno.stat(given);
    if (!info.isDirectory) {
      return { notice: `Skipped the plugin at "${given}": it is not a folder` };
    }
    root = await Deno.realPath(given);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound ? "there is no such folder" : reason(error);
    return { notice: `Skipped the plugin at "${given}": ${why}` };
  }
  const notices: string[] = [];
  const manifestPath = join(root, MANIFEST_PATH);
  const file = await readRecordedFile(manifestPath, await realRoots(root), {
    source: "plugins",
    file: "the plugin manifest",
    folder: "the plugin",
    maxBytes: MAX_MANIFEST_FILE,
    credentials,
    onNotice: (message) => notices.push(message),
  });
  if (notices.length > 0) {
    return { notice: `Skipped the plugin at "${root}": ${notices.join("; ")}` };
  }
  if (file === undefined) {
    const name = basename(root);
    const bad = badPluginName(name);
    if (bad !== undefined) {
      return {
        notice: `Skipped the plugin at "${root}": it has no ${MANIFEST_PATH}, and its folder's ` +
          `name ${JSON.stringify(name)} cannot name a plugin: ${bad}`,
      };
    }
    return { plugin: { name, root, source } };
  }
  const parsed = parseManifest(manifestPath, file.text, root);
  if (!parsed.ok) return { notice: parsed.message };
  const { parts } = parsed.manifest;
  return {
    plugin: {
      name: parsed.manifest.name,
      root,
      source,
      ...(Object.keys(parts).length === 0 ? {} : { parts }),
      ...(parsed.manifest.mcpServers ? { mcpServers: true } : {}),
    },
  };
}

/**
 * The plugins of the folders `dirs` (`--plugin-dir`, in order), each read by
 * {@link readPluginRoot}; a plugin whose name an earlier one (or one of `before`) has is skipped
 * with a notice naming both folders. Notices come in the order of `dirs`. Never throws.
 */
export async function readPluginRoots(
  dirs: readonly string[],
  source: string,
  options: { credentials?: readonly string[]; before?: readonly PluginRoot[] } = {},
): Promise<{ plugins: PluginRoot[]; notices: string[] }> {
  const read = await Promise.all(
    dirs.map((dir) => readPluginRoot(dir, source, options.credentials)),
  );
  const plugins: PluginRoot[] = [];
  const notices: string[] = [];
  const taken = new Map((options.before ?? []).map((plugin) => [plugin.name, plugin]));
  for (const one of read) {
    if (one.plugin === undefined) {
      notices.push(one.notice);
      continue;
    }
    const earlier = taken.get(one.plugin.name);
    if (earlier !== undefined) {
      notices.push(
        `Skipped the plugin at "${one.plugin.root}": the plugin "${one.plugin.name}" at ` +
          `"${earlier.root}" has the same name and was given first`,
      );
      continue;
    }
    taken.set(one.plugin.name, one.plugin);
    plugins.push(one.plugin);
  }
  return { plugins, notices };
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
