/**
 * The shapes of Claude Code settings as rein reads them: the keys rein uses, typed, and every
 * other top-level key kept untouched.
 */

/** The permission modes, in the order Claude Code documents them. */
export const PERMISSION_MODES = [
  "default",
  "acceptEdits",
  "plan",
  "dontAsk",
  "bypassPermissions",
] as const;

/**
 * How rein treats a tool call that no rule decides: `default` asks before edits and commands
 * that are not read-only, `acceptEdits` allows file edits in the workspace, `plan` allows only
 * read-only tools, `dontAsk` denies what would ask, `bypassPermissions` allows what no deny rule
 * matches.
 */
export type PermissionMode = typeof PERMISSION_MODES[number];

/**
 * Hook events whose names rein knows: the ones compat.md lists, now or later. A settings file
 * may name others; they are kept with a warning.
 */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "SessionStart",
  "SessionEnd",
  "Notification",
  "PreCompact",
  "PostCompact",
  "TaskCreated",
  "TaskCompleted",
  "TeammateIdle",
  "WorktreeCreate",
  "WorktreeRemove",
] as const;

/** A hook event name rein knows. */
export type HookEvent = typeof HOOK_EVENTS[number];

/** `permissions` in a settings file. Rules are kept as written; parsing them is a later step. */
export interface PermissionSettings {
  /** Rules (`Tool` or `Tool(specifier)`) that allow a call without asking. */
  allow?: string[];
  /** Rules that make a call ask even where a mode or allow rule would let it run. */
  ask?: string[];
  /** Rules that refuse a call; a deny anywhere beats an allow anywhere. */
  deny?: string[];
  /** The mode a session starts in. */
  defaultMode?: PermissionMode;
  /** Directories outside the workspace that tools may also use. */
  additionalDirectories?: string[];
}

/** One shell command run at a hook event. */
export interface HookCommand {
  type: "command";
  /** Run by the shell with the event as JSON on stdin. */
  command: string;
  /** Seconds before the command is stopped; positive when present. */
  timeout?: number;
  /**
   * What the command's environment has beyond the hooks' (a plugin's hook: `CLAUDE_PLUGIN_ROOT`);
   * never read from a settings file.
   */
  env?: Record<string, string>;
}

/** Commands run at a hook event for the tools (or sources) a matcher selects. */
export interface HookMatcher {
  /** Empty, `*` or absent: everything; names joined by `|`: exactly those; else a regex. */
  matcher?: string;
  hooks: HookCommand[];
}

/** Settings after parsing (one file) or merging (all files). */
export interface Settings {
  /** The model to use unless the command line names one. */
  model?: string;
  /** The model to switch to when the main one is overloaded. */
  fallbackModel?: string;
  permissions?: PermissionSettings;
  /** Matchers by hook event name, e.g. `PreToolUse`. */
  hooks?: Record<string, HookMatcher[]>;
  /** Environment variables set for the session and the commands it runs. */
  env?: Record<string, string>;
  /** A shell command whose output is the API key. */
  apiKeyHelper?: string;
  /** Top-level keys rein does not use, as they were in the file (Claude Code has many). */
  other: Record<string, unknown>;
}

/** Where a settings file sits in the precedence order, highest first as listed. */
export type SettingsScope = "cli" | "local" | "project" | "user" | "plugin";

/** One settings file as read. */
export interface SettingsSource {
  scope: SettingsScope;
  /** The file's path as rein opened it. */
  path: string;
  /** The file's text as read, so a later step can record it as an event and replay from it. */
  text: string;
  /** For a plugin's hooks file (scope `plugin`): the plugin's name. */
  plugin?: string;
  /** For a plugin's hooks file: its folder, `${CLAUDE_PLUGIN_ROOT}` in its hooks. */
  pluginRoot?: string;
}

/**
 * A problem found in a settings file. `message` stands on its own when printed: it names the
 * file in quotes, says what is wrong and quotes the offending value, e.g. `Invalid settings in
 * "/p/.claude/settings.json": permissions.allow[2] must be a string, found 42`. `path` repeats
 * the file so callers can group or sort.
 */
export interface SettingsDiagnostic {
  /** The settings file concerned. */
  path: string;
  message: string;
  /** `error`: an entry was dropped or a file could not be used; `warning`: kept but suspect. */
  severity: "error" | "warning";
  /** The whole file could not be used (unreadable, not JSON, not an object): rein stops. */
  fatal?: true;
}

/** What `loadSettings` returns: the files read, their merged settings, and every problem. */
export interface LoadedSettings {
  items: {
    /** Every file that was read, highest precedence first, including ones that did not parse. */
    sources: SettingsSource[];
    settings: Settings;
  };
  diagnostics: SettingsDiagnostic[];
}
