import { isAbsolute, join, resolve } from "../../events/posix_path.ts";
import { isRecord } from "../settings/is_record.ts";

/**
 * Claude Code's own record of plugins, read (never written) so that a plugin a person installed
 * with Claude Code works in rein unchanged: `<config>/plugins/installed_plugins.json` and
 * `<config>/plugins/known_marketplaces.json`, `<config>` being `$CLAUDE_CONFIG_DIR` or
 * `~/.claude`.
 */

/** Claude Code's plugins folder: `$CLAUDE_CONFIG_DIR/plugins`, else `~/.claude/plugins`. Pure. */
export function claudePluginsDir(
  home: string | undefined,
  configDir: string | undefined,
): string | undefined {
  if (configDir) return join(configDir, "plugins");
  return home === undefined ? undefined : join(home, ".claude", "plugins");
}

/** One installation of a plugin, as installed_plugins.json records it. */
export interface PluginInstall {
  /** Its folder, absolute. */
  installPath: string;
  /** `user`, `project`, `local` or `managed` (version 1 files have none: `user`). */
  scope: string;
  /** The project a `project` or `local` installation is for. */
  projectPath?: string;
  version?: string;
}

/**
 * The installations of each plugin id (`name@marketplace`) in installed_plugins.json's `text`:
 * version 2 (`{version: 2, plugins: {id: [{scope, projectPath?, installPath, version, …}]}}`)
 * and version 1 (`{version: 1, plugins: {id: {installPath, version, …}}}`). An installation
 * without an absolute `installPath` is left out. Throws (a `SyntaxError` or an `Error` saying
 * why) when the text is not JSON or not an object with `plugins`; pure otherwise.
 */
export function parseInstalledPlugins(text: string): Map<string, PluginInstall[]> {
  const json: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
  if (!isRecord(json) || !isRecord(json["plugins"])) {
    throw new Error(`it is not an object with "plugins"`);
  }
  const installs = new Map<string, PluginInstall[]>();
  for (const [id, value] of Object.entries(json["plugins"])) {
    const list = (Array.isArray(value) ? value : [value]).flatMap((item) => {
      const install = installOf(item);
      return install === undefined ? [] : [install];
    });
    if (list.length > 0) installs.set(id, list);
  }
  return installs;
}

function installOf(item: unknown): PluginInstall | undefined {
  if (!isRecord(item)) return undefined;
  const path = item["installPath"];
  if (typeof path !== "string" || !isAbsolute(path)) return undefined;
  const install: PluginInstall = {
    installPath: path,
    scope: typeof item["scope"] === "string" ? item["scope"] : "user",
  };
  if (typeof item["projectPath"] === "string") install.projectPath = item["projectPath"];
  if (typeof item["version"] === "string") install.version = item["version"];
  return install;
}

/**
 * The installation a session in `workspace` uses, as Claude Code chooses it: one for this
 * project (`project` or `local` scope whose `projectPath` is the workspace) first, else a `user`
 * or `managed` one; an installation for another project is not used. Pure.
 */
export function installFor(
  installs: readonly PluginInstall[],
  workspace: string,
): PluginInstall | undefined {
  const here = resolve(workspace);
  return installs.find((install) =>
    install.projectPath !== undefined && resolve(install.projectPath) === here &&
    (install.scope === "project" || install.scope === "local")
  ) ?? installs.find((install) => install.scope === "user" || install.scope === "managed");
}

/** A marketplace Claude Code knows (added with `/plugin marketplace add`, or from settings). */
export interface KnownMarketplace {
  /** Its folder on disk: Claude Code's clone, or the folder of a directory marketplace. */
  installLocation: string;
  /** Its `source` as recorded (`{source: "github", repo}`, `{source: "directory", path}`, …). */
  source?: unknown;
}

/**
 * The marketplaces in known_marketplaces.json's `text` (`{name: {source, installLocation,
 * lastUpdated}}`), by name; one without an absolute `installLocation` is left out. Throws when the
 * text is not JSON or not an object; pure otherwise.
 */
export function parseKnownMarketplaces(text: string): Map<string, KnownMarketplace> {
  const json: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
  if (!isRecord(json)) throw new Error("it is not a JSON object");
  const known = new Map<string, KnownMarketplace>();
  for (const [name, value] of Object.entries(json)) {
    if (!isRecord(value)) continue;
    const location = value["installLocation"];
    if (typeof location !== "string" || !isAbsolute(location)) continue;
    known.set(name, {
      installLocation: location,
      ...(value["source"] === undefined ? {} : { source: value["source"] }),
    });
  }
  return known;
}
