/** Reads a plugin's hooks file: Claude Code's `{"hooks": {...}}`, run from the plugin's folder. */
import { parseJsonText } from "./_json_error.ts";
import { parseHooks } from "./_parse_hooks.ts";
import { isRecord, Reporter } from "./_reporter.ts";
import type { ParsedSettings } from "./parse_settings.ts";
import type { HookMatcher, SettingsSource } from "./settings.ts";

/** What a plugin's hook commands name their plugin's folder by, as in Claude Code. */
const PLUGIN_ROOT = /\$\{CLAUDE_PLUGIN_ROOT\}/g;

/**
 * The hooks of a plugin's hooks file (`hooks/hooks.json`, or the manifest holding them inline):
 * its `hooks` member, read as a settings file's `hooks` is, each command with
 * `${CLAUDE_PLUGIN_ROOT}` replaced by the plugin's folder (`source.pluginRoot`) and
 * `CLAUDE_PLUGIN_ROOT` set in its environment. Every other member is ignored. Nothing it holds is
 * fatal: a file that is not JSON, or has no `hooks` object, gives one error and no hooks. Pure.
 */
export function parsePluginHooks(source: SettingsSource): ParsedSettings {
  const report = new Reporter(source.path);
  const parsed = parseJsonText(source.text, "the plugin's hooks", source.path);
  if (!parsed.ok) {
    report.error(parsed.message);
    return { settings: {}, diagnostics: report.diagnostics };
  }
  const json = parsed.json;
  if (!isRecord(json)) {
    report.mismatch("the top level", `an object like {"hooks": {...}}`, json);
    return { settings: {}, diagnostics: report.diagnostics };
  }
  const hooks = parseHooks(json["hooks"], report);
  if (hooks === undefined) return { settings: {}, diagnostics: report.diagnostics };
  const root = source.pluginRoot ?? "";
  const env = root === "" ? undefined : { CLAUDE_PLUGIN_ROOT: root };
  const expanded = Object.fromEntries(
    Object.entries(hooks).map(([event, matchers]): [string, HookMatcher[]] => [
      event,
      matchers.map((matcher) => ({
        ...matcher,
        hooks: matcher.hooks.map((hook) => ({
          ...hook,
          command: root === "" ? hook.command : hook.command.replace(PLUGIN_ROOT, () => root),
          ...(env === undefined ? {} : { env }),
        })),
      })),
    ]),
  );
  return { settings: { hooks: expanded }, diagnostics: report.diagnostics };
}
