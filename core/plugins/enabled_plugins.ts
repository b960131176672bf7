import { join } from "../../events/posix_path.ts";
import type { PluginRoot } from "../files/plugin_root.ts";
import { isInside } from "../files/is_inside.ts";
import { readRecordedFile } from "../files/recorded_file.ts";
import { realRoots } from "../files/start_bounds.ts";
import {
  type AppliedSettingsFile,
  declaredMarketplaces,
  type EnabledPlugin,
  enabledPlugins,
} from "./enabled_plugins_settings.ts";
import {
  claudePluginsDir,
  installFor,
  type KnownMarketplace,
  parseInstalledPlugins,
  parseKnownMarketplaces,
  type PluginInstall,
} from "./installed_plugins.ts";
import { type Marketplace, marketplaceSource, parseMarketplace } from "./marketplace.ts";
import { cloneFolder, cloneOnce, type GitRunner, runGitCommand } from "./marketplace_clone.ts";
import { MANIFEST_PATH } from "./plugin_manifest.ts";
import { readPluginRoot } from "./read_plugin_root.ts";

/** Largest marketplace.json rein reads; a bigger one is reported and its plugins not used. */
export const MAX_MARKETPLACE_FILE = 1024 * 1024;
/** Largest installed_plugins.json or known_marketplaces.json rein reads. */
export const MAX_CLAUDE_PLUGINS_FILE = 4 * 1024 * 1024;

/** What {@link resolveEnabledPlugins} needs. */
export interface EnabledPluginsPlace {
  /**
   * Each settings file as applied, highest precedence first: an untrusted folder's files come
   * without `enabledPlugins` and `extraKnownMarketplaces` (see `untrustedSettings`).
   */
  files: readonly AppliedSettingsFile[];
  workspace: string;
  home: string | undefined;
  /** `$CLAUDE_CONFIG_DIR`, where Claude Code keeps `plugins/` instead of `~/.claude`. */
  claudeConfigDir?: string | undefined;
  /** rein's own folder of clones (see `reinPluginCache`); without one nothing is cloned. */
  cache?: string | undefined;
  /** Credential stores, never read (see `FilePlace.credentials`). */
  credentials?: readonly string[];
  /** Plugins already in use (`--plugin-dir`): an enabled one of the same name is skipped. */
  before?: readonly PluginRoot[];
  /** Runs git (tests may count the calls); the `git` on the PATH by default. */
  runGit?: GitRunner;
}

/**
 * The plugins the settings enable (`enabledPlugins`, see `enabledPlugins`), each found as Claude
 * Code finds it: installed by Claude Code (`installed_plugins.json`: one for this project, else
 * the person's), else in its marketplace (`extraKnownMarketplaces`, else one Claude Code knows,
 * `known_marketplaces.json`), which is a folder or a git repository cloned once into rein's cache
 * (Claude Code's clone is used when it has one). A plugin that cannot be found or used is left out
 * with one line naming it and its marketplace; the rest go on. Reads the disk and runs git only
 * for a source the settings name; never throws.
 */
export async function resolveEnabledPlugins(
  place: EnabledPluginsPlace,
): Promise<{ plugins: PluginRoot[]; notices: string[] }> {
  const enabled = enabledPlugins(place.files);
  const notices = [...enabled.notices];
  if (enabled.plugins.length === 0) return { plugins: [], notices };
  const claude = await readClaudePlugins(place, notices);
  const marketplaces = new Map<string, Promise<OpenMarketplace | string>>();
  const declared = declaredMarketplaces(place.files);
  const open = (name: string) => {
    let opened = marketplaces.get(name);
    if (!opened) {
      opened = openMarketplace(name, declared.get(name)?.source, claude.known.get(name), place);
      marketplaces.set(name, opened);
    }
    return opened;
  };
  const found = await Promise.all(enabled.plugins.map(async (plugin) => {
    const installed = installFor(claude.installs.get(plugin.id) ?? [], place.workspace);
    return await (installed !== undefined && await isFolder(installed.installPath)
      ? usePlugin(plugin, installed.installPath, undefined, place)
      : fromMarketplace(plugin, await open(plugin.marketplace), place));
  }));
  const plugins: PluginRoot[] = [];
  const taken = new Map((place.before ?? []).map((plugin) => [plugin.name, plugin]));
  for (const one of found) {
    if (typeof one === "string") {
      notices.push(one);
      continue;
    }
    const earlier = taken.get(one.name);
    if (earlier !== undefined) {
      notices.push(
        `Skipped the plugin "${one.source}" at "${one.root}": the plugin "${one.name}" at ` +
          `"${earlier.root}" (${earlier.source}) has the same name and comes first`,
      );
      continue;
    }
    taken.set(one.name, one);
    plugins.push(one);
  }
  return { plugins, notices };
}

/** A marketplace's list and the folder its paths are taken from. */
interface OpenMarketplace {
  name: string;
  root: string;
  list: Marketplace;
}

/** Claude Code's installations and marketplaces (none when it has no files). */
interface ClaudePlugins {
  installs: Map<string, PluginInstall[]>;
  known: Map<string, KnownMarketplace>;
}

async function readClaudePlugins(
  place: EnabledPluginsPlace,
  notices: string[],
): Promise<ClaudePlugins> {
  const dir = claudePluginsDir(place.home, place.claudeConfigDir);
  const none: ClaudePlugins = { installs: new Map(), known: new Map() };
  if (dir === undefined) return none;
  const roots = await realRoots(dir);
  const read = async <T>(file: string, parse: (text: string) => Map<string, T>) => {
    const path = join(dir, file);
    const recorded = await readRecordedFile(path, roots, {
      source: "plugins",
      file: "Claude Code's plugin list",
      folder: "Claude Code's plugins",
      maxBytes: MAX_CLAUDE_PLUGINS_FILE,
      credentials: place.credentials ?? [],
      onNotice: (message) => notices.push(message),
    });
    if (recorded === undefined) return new Map<string, T>();
    try {
      return parse(recorded.text);
    } catch (error) {
      notices.push(`Cannot use "${path}": ${error instanceof Error ? error.message : error}`);
      return new Map<string, T>();
    }
  };
  const [installs, known] = await Promise.all([
    read("installed_plugins.json", parseInstalledPlugins),
    read("known_marketplaces.json", parseKnownMarketplaces),
  ]);
  return { installs, known };
}

/**
 * The marketplace `name`: from its declared `source` (a folder, or a git repository: Claude
 * Code's clone of it when it has one, else rein's), else from Claude Code's list; or why not.
 */
async function openMarketplace(
  name: string,
  declared: unknown,
  known: KnownMarketplace | undefined,
  place: EnabledPluginsPlace,
): Promise<OpenMarketplace | string> {
  const cannot = (why: string) => `the marketplace "${name}" ${why}`;
  if (declared === undefined && known === undefined) {
    return cannot(
      "is not known: declare it in extraKnownMarketplaces, or add it with Claude Code",
    );
  }
  let root: string;
  let file: string;
  const source = declared === undefined
    ? undefined
    : marketplaceSource(declared, place.workspace, place.home);
  if (source?.kind === "unsupported") return cannot(`cannot be used: ${source.why}`);
  if (source?.kind === "folder") {
    root = source.root;
    file = source.file;
  } else if (known !== undefined && await isFolder(known.installLocation)) {
    root = known.installLocation;
    file = join(root, ".claude-plugin", "marketplace.json");
  } else if (source?.kind === "git") {
    if (place.cache === undefined) return cannot("cannot be cloned: there is no home folder");
    root = await cloneFolder(join(place.cache, "marketplaces"), name, source.git);
    const cloned = await cloneOnce(source.git, root, place.runGit ?? runGitCommand);
    if (!cloned.ok) return cannot(`could not be cloned from "${source.git.url}": ${cloned.why}`);
    file = join(root, ".claude-plugin", "marketplace.json");
  } else {
    return cannot(`has no folder: Claude Code's "${known?.installLocation}" is missing`);
  }
  const notices: string[] = [];
  const recorded = await readRecordedFile(file, await realRoots(root), {
    source: "plugins",
    file: "the marketplace list",
    folder: "the marketplace",
    maxBytes: MAX_MARKETPLACE_FILE,
    credentials: place.credentials ?? [],
    onNotice: (message) => notices.push(message),
  });
  if (notices.length > 0) return cannot(`cannot be read: ${notices.join("; ")}`);
  if (recorded === undefined) return cannot(`has no list: "${file}" is missing`);
  const parsed = parseMarketplace(file, recorded.text, root);
  if (!parsed.ok) return cannot(`cannot be read: ${parsed.message}`);
  return { name, root, list: parsed.marketplace };
}

/** The plugin `plugin` from its marketplace, or the line saying why not. */
async function fromMarketplace(
  plugin: EnabledPlugin,
  marketplace: OpenMarketplace | string,
  place: EnabledPluginsPlace,
): Promise<PluginRoot | string> {
  const cannot = (why: string) =>
    `Cannot use the plugin "${plugin.id}" enabled in settings: ${why}`;
  if (typeof marketplace === "string") return cannot(marketplace);
  const entry = marketplace.list.plugins.find((one) => one.name === plugin.name);
  if (entry === undefined) {
    return cannot(`the marketplace "${plugin.marketplace}" lists no plugin "${plugin.name}"`);
  }
  const { source } = entry;
  if (source.kind === "unsupported") {
    return cannot(
      `its entry in the marketplace "${plugin.marketplace}" cannot be used: ${source.why}`,
    );
  }
  if (source.kind === "folder") {
    return await usePlugin(plugin, source.path, marketplace.root, place);
  }
  if (place.cache === undefined) return cannot("it cannot be cloned: there is no home folder");
  const folder = await cloneFolder(
    join(place.cache, "plugins", plugin.marketplace),
    plugin.name,
    source.git,
  );
  const cloned = await cloneOnce(source.git, folder, place.runGit ?? runGitCommand);
  if (!cloned.ok) {
    return cannot(
      `it could not be cloned from "${source.git.url}" (marketplace "${plugin.marketplace}"): ` +
        cloned.why,
    );
  }
  const root = source.git.path === undefined ? folder : join(folder, source.git.path);
  return await usePlugin(plugin, root, folder, place);
}

/**
 * The plugin in the folder `root`, read by `readPluginRoot`; when `within` is given, the folder
 * (every link resolved) must lie in it. Named as its manifest says, else as enabled.
 */
async function usePlugin(
  plugin: EnabledPlugin,
  root: string,
  within: string | undefined,
  place: EnabledPluginsPlace,
): Promise<PluginRoot | string> {
  const cannot = (why: string) =>
    `Cannot use the plugin "${plugin.id}" enabled in settings: ${why}`;
  if (within !== undefined) {
    const [real, realWithin] = await Promise.all([realOf(root), realOf(within)]);
    if (real === undefined) return cannot(`its folder "${root}" is missing`);
    if (realWithin !== undefined && !isInside(realWithin, real)) {
      return cannot(`its folder "${root}" leads to "${real}", outside "${within}"`);
    }
  }
  const read = await readPluginRoot(root, plugin.id, place.credentials ?? []);
  if (read.plugin === undefined) return cannot(read.notice);
  const manifest = await isFile(join(read.plugin.root, MANIFEST_PATH));
  return manifest ? read.plugin : { ...read.plugin, name: plugin.name };
}

async function realOf(path: string): Promise<string | undefined> {
  return await Deno.realPath(path).catch(() => undefined);
}

async function isFolder(path: string): Promise<boolean> {
  return await Deno.stat(path).then((info) => info.isDirectory, () => false);
}

async function isFile(path: string): Promise<boolean> {
  return await Deno.stat(path).then((info) => info.isFile, () => false);
}
