import type { SettingsFileRead, SettingsSnapshot } from "../../events/event_types.ts";
import { mergeSettings } from "./merge_settings.ts";
import { parseSettings } from "./parse_settings.ts";
import { PERMISSION_MODES, type PermissionMode, type Settings } from "./settings.ts";

/** The settings of a recorded snapshot: each file's, merged, the starting mode, the problems. */
export interface RecordedSettings {
  /** Each file's own settings, highest precedence first, with its path and scope. */
  files: { path: string; scope: SettingsFileRead["scope"]; settings: Partial<Settings> }[];
  settings: Settings;
  /**
   * Directories outside the workspace that may be written: `additionalDirectories` from the
   * person's own files only (`~/.claude`, `--settings`), as a cloned repository's files may not
   * widen what the agent can reach.
   */
  additionalDirectories: string[];
  /** `--permission-mode`, else the highest file's `defaultMode`, else `default`. */
  mode: PermissionMode;
  /** Every problem found, each naming its file (or flag) and quoting the text. */
  diagnostics: string[];
}

const cache = new WeakMap<SettingsSnapshot, RecordedSettings>();

/**
 * The settings a session ran with, from the texts it recorded (never from disk, so replay reads
 * what the run read). Cached per snapshot object; pure otherwise.
 */
export function recordedSettings(snapshot: SettingsSnapshot): RecordedSettings {
  const cached = cache.get(snapshot);
  if (cached !== undefined) return cached;
  const diagnostics: string[] = [];
  const files = snapshot.sources.map((source) => {
    const parsed = parseSettings(source);
    diagnostics.push(...parsed.diagnostics.map((d) => d.message));
    return { path: source.path, scope: source.scope, settings: parsed.settings };
  });
  const settings = mergeSettings(files.map((file) => file.settings));
  const additionalDirectories: string[] = [];
  let mode: PermissionMode = "default";
  for (const file of [...files].reverse()) {
    const permissions = file.settings.permissions;
    const personal = isPersonal(file.scope);
    if (permissions?.additionalDirectories && !personal) {
      diagnostics.push(
        `Ignored permissions.additionalDirectories in "${file.path}": only your own settings ` +
          "(~/.claude/settings.json or --settings) may widen what rein can reach",
      );
    } else if (permissions?.additionalDirectories) {
      additionalDirectories.push(...permissions.additionalDirectories);
    }
    const wanted = permissions?.defaultMode;
    if (wanted === "bypassPermissions" && !personal) {
      diagnostics.push(
        `Ignored "defaultMode": "bypassPermissions" in "${file.path}": only your own settings ` +
          "or --permission-mode may turn permission checks off",
      );
    } else if (wanted !== undefined) mode = wanted;
  }
  const flag = snapshot.flags.permissionMode;
  if (flag !== undefined) {
    if ((PERMISSION_MODES as readonly string[]).includes(flag)) mode = flag as PermissionMode;
    else diagnostics.push(`Unknown --permission-mode "${flag}": using "${mode}"`);
  }
  const recorded = {
    files,
    settings,
    additionalDirectories: [...new Set(additionalDirectories)],
    mode,
    diagnostics,
  };
  cache.set(snapshot, recorded);
  return recorded;
}

/** The person's own settings (user, `--settings`), as against a repository's (project, local). */
export function isPersonal(scope: SettingsFileRead["scope"]): boolean {
  return scope === "user" || scope === "cli";
}
