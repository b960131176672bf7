import { parseJsonText } from "./_json_error.ts";
import { parseHooks } from "./_parse_hooks.ts";
import { parsePermissions } from "./_parse_permissions.ts";
import { isRecord, keyPath, Reporter } from "./_reporter.ts";
import type { Settings, SettingsDiagnostic, SettingsSource } from "./settings.ts";

/** What one settings file contributes, and what is wrong with it. */
export interface ParsedSettings {
  /** Only the keys the file sets with a valid value; `other` only when it has unknown keys. */
  settings: Partial<Settings>;
  diagnostics: SettingsDiagnostic[];
}

/**
 * Reads the text of one settings file. Every entry of a known key that has the wrong shape is
 * reported as an error (naming the key path and quoting the value) and dropped, and the rest of
 * the file is kept: one bad rule never disables the others. Unknown hook events and unknown
 * `permissions` keys are kept or ignored with a warning; unknown top-level keys go to `other`
 * silently, since Claude Code has many that rein does not use. Text that is not JSON, or whose
 * top level is not an object, gives one error and no settings. Pure; never throws.
 */
export function parseSettings(source: SettingsSource): ParsedSettings {
  const report = new Reporter(source.path);
  const parsed = parseJsonText(source.text, "settings", source.path);
  if (!parsed.ok) {
    report.error(parsed.message);
    return { settings: {}, diagnostics: fatal(report.diagnostics) };
  }
  const json = parsed.json;
  if (!isRecord(json)) {
    report.mismatch("the top level", "an object", json);
    return { settings: {}, diagnostics: fatal(report.diagnostics) };
  }
  return { settings: readKeys(json, report), diagnostics: report.diagnostics };
}

function readKeys(json: Record<string, unknown>, report: Reporter): Partial<Settings> {
  const settings: Partial<Settings> = {};
  const other: [string, unknown][] = [];
  for (const [key, value] of Object.entries(json)) {
    switch (key) {
      case "model":
      case "fallbackModel":
      case "apiKeyHelper":
        if (typeof value === "string") settings[key] = value;
        else report.mismatch(key, "a string", value);
        break;
      case "permissions": {
        const permissions = parsePermissions(value, report);
        if (permissions) settings.permissions = permissions;
        break;
      }
      case "hooks": {
        const hooks = parseHooks(value, report);
        if (hooks) settings.hooks = hooks;
        break;
      }
      case "env": {
        const env = parseEnv(value, report);
        if (env) settings.env = env;
        break;
      }
      default:
        other.push([key, value]);
    }
  }
  // fromEntries defines keys as data, so a "__proto__" key stays an ordinary key.
  if (other.length > 0) settings.other = Object.fromEntries(other);
  return settings;
}

function parseEnv(value: unknown, report: Reporter): Record<string, string> | undefined {
  if (!isRecord(value)) {
    report.mismatch("env", "an object of strings", value);
    return undefined;
  }
  const entries: [string, string][] = [];
  for (const [name, item] of Object.entries(value)) {
    if (typeof item === "string") entries.push([name, item]);
    else report.mismatch(keyPath("env", name), "a string", item);
  }
  return Object.fromEntries(entries);
}

/** Marks diagnostics as making the whole file unusable. */
function fatal(diagnostics: SettingsDiagnostic[]): SettingsDiagnostic[] {
  return diagnostics.map((diagnostic) => ({ ...diagnostic, fatal: true }));
}
