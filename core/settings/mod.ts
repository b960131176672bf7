/**
 * Claude Code settings files: where they are, reading and checking each one, and merging them
 * in precedence order.
 *
 * @module
 */
export type * from "./settings.ts";
export { HOOK_EVENTS, PERMISSION_MODES } from "./settings.ts";
export { type ParsedSettings, parseSettings } from "./parse_settings.ts";
export { mergeSettings } from "./merge_settings.ts";
export {
  loadSettings,
  type LoadSettingsOptions,
  type SettingsFile,
  type SettingsLocations,
  settingsPaths,
} from "./load_settings.ts";
