import type { SettingsSnapshot } from "../../events/event_types.ts";
import { mergeSettings } from "./merge_settings.ts";
import { parseSettings } from "./parse_settings.ts";
import { PERMISSION_MODES, type PermissionMode, type Settings } from "./settings.ts";

/** The settings of a recorded snapshot: each file's, merged, the starting mode, the problems. */
export interface RecordedSettings {
  /** Each file's own settings, highest precedence first, with its path. */
  files: { path: string; settings: Partial<Settings> }[];
  settings: Settings;
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
    return { path: source.path, settings: parsed.settings };
  });
  const settings = mergeSettings(files.map((file) => file.settings));
  let mode: PermissionMode = settings.permissions?.defaultMode ?? "default";
  const flag = snapshot.flags.permissionMode;
  if (flag !== undefined) {
    if ((PERMISSION_MODES as readonly string[]).includes(flag)) mode = flag as PermissionMode;
    else diagnostics.push(`Unknown --permission-mode "${flag}": using "${mode}"`);
  }
  const recorded = { files, settings, mode, diagnostics };
  cache.set(snapshot, recorded);
  return recorded;
}
