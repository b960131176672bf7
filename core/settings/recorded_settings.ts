import type { SettingsFileRead, SettingsSnapshot } from "../../events/event_types.ts";
import { mergeSettings } from "./merge_settings.ts";
import { parseSettings } from "./parse_settings.ts";
import { parsePluginHooks } from "./_plugin_hooks.ts";
import {
  PERMISSION_MODES,
  type PermissionMode,
  type PermissionSettings,
  type Settings,
} from "./settings.ts";

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
  /**
   * What the repository's own files set and an untrusted workspace did not apply (see
   * {@link untrustedSettings}), each once, as `permissions.allow`, `hooks`, `env`; empty when
   * trusted.
   */
  ignored: string[];
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
  const ignored = new Set<string>();
  const files = snapshot.sources.map((source) => {
    // A plugin's hooks file gives hooks only; the person chose the plugin, so they apply.
    const parsed = source.scope === "plugin" ? parsePluginHooks(source) : parseSettings(source);
    diagnostics.push(...parsed.diagnostics.map((d) => d.message));
    const settings = snapshot.trusted === false && !isPersonal(source.scope) &&
        source.scope !== "plugin"
      ? untrustedSettings(parsed.settings, ignored)
      : parsed.settings;
    return { path: source.path, scope: source.scope, settings };
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
    ignored: [...ignored],
  };
  cache.set(snapshot, recorded);
  return recorded;
}

/** The person's own settings (user, `--settings`), as against a repository's (project, local). */
export function isPersonal(scope: SettingsFileRead["scope"]): boolean {
  return scope === "user" || scope === "cli";
}

/**
 * Modes a repository's files may set without trust: none lets more run than `default`
 * (`bypassPermissions` never applies from a repository's file, trusted or not: see above).
 */
const UNTRUSTED_MODES: readonly string[] = ["default", "plan", "dontAsk", "bypassPermissions"];

/** Keys of `other` that let a repository's MCP servers start (Claude Code's approvals). */
const MCP_APPROVALS = ["enableAllProjectMcpServers", "enabledMcpjsonServers"];

/**
 * Other keys an untrusted folder's files lose: MCP approvals, a status line (a command), and
 * the plugins they enable and the marketplaces they name (a plugin's hooks are commands, and a
 * marketplace may be cloned).
 */
const UNTRUSTED_OTHER = [
  ...MCP_APPROVALS,
  "statusLine",
  "enabledPlugins",
  "extraKnownMarketplaces",
];

/**
 * A repository's file (project or local) as an untrusted workspace applies it: without
 * `permissions.allow`, a `defaultMode` that lets more run than `default`, `hooks`, `env`, the
 * approval of its MCP servers, its status line, and its plugins (`enabledPlugins`,
 * `extraKnownMarketplaces`); its deny and ask rules and everything else stay. What was dropped
 * is added to `ignored`. Pure apart from `ignored`.
 */
export function untrustedSettings(
  settings: Partial<Settings>,
  ignored: Set<string>,
): Partial<Settings> {
  const kept: Partial<Settings> = { ...settings };
  const permissions = settings.permissions;
  if (permissions !== undefined) {
    const { allow, defaultMode, ...rest } = permissions;
    const narrowed: PermissionSettings = { ...rest };
    if (allow !== undefined && allow.length > 0) ignored.add("permissions.allow");
    if (defaultMode !== undefined && UNTRUSTED_MODES.includes(defaultMode)) {
      narrowed.defaultMode = defaultMode;
    } else if (defaultMode !== undefined) ignored.add(`defaultMode "${defaultMode}"`);
    kept.permissions = narrowed;
  }
  if (settings.hooks !== undefined) {
    delete kept.hooks;
    if (Object.keys(settings.hooks).length > 0) ignored.add("hooks");
  }
  if (settings.env !== undefined) {
    delete kept.env;
    if (Object.keys(settings.env).length > 0) ignored.add("env");
  }
  const other = settings.other;
  if (other !== undefined && UNTRUSTED_OTHER.some((key) => key in other)) {
    kept.other = Object.fromEntries(
      Object.entries(other).filter(([key]) => !UNTRUSTED_OTHER.includes(key)),
    );
    for (const key of UNTRUSTED_OTHER) if (key in other) ignored.add(key);
  }
  return kept;
}
