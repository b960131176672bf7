import type { Settings, SettingsSource } from "../settings/settings.ts";
import { isRecord } from "../settings/is_record.ts";
import { parseSettings } from "../settings/parse_settings.ts";
import { isPersonal, untrustedSettings } from "../settings/recorded_settings.ts";
import { badPluginName } from "./plugin_manifest.ts";

/** One settings file as applied: its path and its settings (an untrusted folder's without these). */
export interface AppliedSettingsFile {
  path: string;
  settings: Partial<Settings>;
}

/**
 * The settings files `sources` (highest precedence first) as a session applies them: a
 * repository's own files (project, local) in an untrusted folder without what only trust applies
 * (`untrustedSettings`: their `enabledPlugins` and `extraKnownMarketplaces` among it), the
 * person's as they are. Pure.
 */
export function appliedSettingsFiles(
  sources: readonly SettingsSource[],
  trusted: boolean,
): AppliedSettingsFile[] {
  return sources.map((source) => {
    const { settings } = parseSettings(source);
    return {
      path: source.path,
      settings: trusted || isPersonal(source.scope)
        ? settings
        : untrustedSettings(settings, new Set()),
    };
  });
}

/** A plugin enabled in settings: `<name>@<marketplace>`. */
export interface EnabledPlugin {
  id: string;
  name: string;
  marketplace: string;
}

/** A marketplace declared in settings (`extraKnownMarketplaces`), with the file that declares it. */
export interface DeclaredMarketplace {
  /** Its `source`, as written. */
  source: unknown;
  /** The settings file. */
  path: string;
}

/**
 * The plugins `enabledPlugins` turns on across `files` (highest precedence first), as Claude
 * Code merges it: per plugin id, the highest file that names it decides (`true` enables, `false`
 * disables a plugin a lower file enabled). Listed in the order the files name them, the person's
 * first. An id that is not `<name>@<marketplace>` with usable names, or a value that is neither
 * `true` nor `false`, is reported once, naming the file. Pure.
 */
export function enabledPlugins(
  files: readonly AppliedSettingsFile[],
): { plugins: EnabledPlugin[]; notices: string[] } {
  const decided = new Map<string, boolean>();
  const notices: string[] = [];
  for (const file of [...files].reverse()) {
    const value = file.settings.other?.["enabledPlugins"];
    if (value === undefined) continue;
    if (!isRecord(value)) {
      notices.push(`Ignored "enabledPlugins" in "${file.path}": it is not an object`);
      continue;
    }
    for (const [id, on] of Object.entries(value)) {
      if (typeof on !== "boolean") {
        notices.push(
          `Ignored "enabledPlugins" ${JSON.stringify(id)} in "${file.path}": its value is ` +
            "neither true nor false",
        );
        continue;
      }
      decided.delete(id);
      decided.set(id, on);
    }
  }
  const plugins: EnabledPlugin[] = [];
  for (const [id, on] of decided) {
    if (!on) continue;
    const at = id.lastIndexOf("@");
    const name = at < 0 ? id : id.slice(0, at);
    const marketplace = at < 0 ? "" : id.slice(at + 1);
    const badName = badPluginName(name);
    const badMarketplace = badPluginName(marketplace);
    const bad = at < 0
      ? "it is not <plugin>@<marketplace>"
      : badName !== undefined
      ? `the plugin's name ${badName}`
      : badMarketplace !== undefined
      ? `the marketplace's name ${badMarketplace}`
      : undefined;
    if (bad !== undefined) {
      notices.push(`Ignored the plugin ${JSON.stringify(id)} enabled in settings: ${bad}`);
      continue;
    }
    plugins.push({ id, name, marketplace });
  }
  return { plugins, notices };
}

/**
 * The marketplaces `extraKnownMarketplaces` declares across `files` (highest precedence first):
 * per name, the highest file's `source`. Pure.
 */
export function declaredMarketplaces(
  files: readonly AppliedSettingsFile[],
): Map<string, DeclaredMarketplace> {
  const declared = new Map<string, DeclaredMarketplace>();
  for (const file of files) {
    const value = file.settings.other?.["extraKnownMarketplaces"];
    if (!isRecord(value)) continue;
    for (const [name, entry] of Object.entries(value)) {
      if (declared.has(name)) continue;
      declared.set(name, {
        source: isRecord(entry) ? entry["source"] : undefined,
        path: file.path,
      });
    }
  }
  return declared;
}
