import type { JobSettings } from "./job.ts";

/**
 * The settings a session ran with, as read from disk when it started or resumed: each file's
 * text and the command line's permission flags. Rules, modes and hooks are derived from this
 * record, so replay decides as the run did without reading the files again (design.md §11).
 */
export interface SettingsSnapshot {
  /** Every settings file read, highest precedence first (a `--settings` file first). */
  sources: SettingsFileRead[];
  /** Permission flags from the command line. */
  flags: PermissionFlags;
  /** The home directory `~/` rules and hidden paths are resolved against. */
  home: string;
  /** Whether a person could be asked (the REPL); headless runs deny what would ask. */
  interactive: boolean;
  /** What bash runs in, as told to the model; absent when bash runs unconfined. */
  sandbox?: string;
  /**
   * The environment variables that shape decisions (compaction's `DISABLE_AUTO_COMPACT`,
   * `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`, `CLAUDE_CODE_AUTO_COMPACT_WINDOW`), as set at start;
   * absent in sessions recorded by a rein without compaction, which is then off for them.
   */
  env?: Record<string, string>;
  /**
   * Background jobs' settings, as set at start; absent in sessions recorded by a rein without
   * background jobs, whose bash then has no `run_in_background` (in sessions recorded before
   * `features`, its presence says the session has jobs, and cron).
   */
  jobs?: JobSettings;
  /**
   * The session features (mechanisms) of the rein that recorded the session: `todos`, `agents`,
   * `tasks`, `cron`, `jobs` (each mechanism's `feature`). A mechanism whose feature is not listed
   * is not active for the session, so it replays with the tools and requests it had. Absent in
   * sessions recorded before the list: derived from the flags below (see core/settings'
   * `sessionFeatures`).
   */
  features?: string[];
  /**
   * True in sessions recorded by a rein with the workspace's task graph (create_task,
   * claim_task, …), before `features`; absent in older ones, whose requests went without those
   * tools. No longer written: `features` names `tasks`.
   */
  taskTools?: boolean;
  /**
   * True in sessions recorded by a rein with cron (schedule_cron, list_crons, cancel_cron and
   * firings), before `features`; absent in older ones, whose requests went without those tools.
   * Sessions recorded with `jobs` but without this had cron too. No longer written: `features`
   * names `cron`.
   */
  cronTools?: boolean;
  /**
   * How the session's request digests are taken: `messages-last` in sessions recorded by a rein
   * that hashes a round's new messages alone (core/request/request_body.ts); absent in older
   * ones, whose digests hash the whole canonical JSON with sorted keys.
   */
  requestDigest?: "messages-last";
  /**
   * True in sessions recorded by a rein in which an allow rule naming a whole command line
   * exactly (no wildcard) allows that line, as the rule rein suggests for a line of several
   * commands; absent in older ones, where each command of such a line needed a rule of its own.
   */
  wholeCommandRules?: boolean;
  /**
   * The id of the machine the session was started or resumed on (`core/effects/machine_key.ts`),
   * null when that machine had no key; absent in sessions recorded before machine ids. A resume
   * that records it starts from its own settings' mode and keeps the session's "always" rules
   * only when the part before it was recorded on the same machine.
   */
  machine?: string | null;
  /**
   * Whether the person trusted the workspace (Claude Code's `hasTrustDialogAccepted`, or
   * `--trust`). False: the repository's own files (project and local) had their allow rules,
   * permissive `defaultMode`, hooks and `env` ignored. Absent in sessions recorded before trust,
   * which applied every file as trusted.
   */
  trusted?: boolean;
}

/** One settings file as read. */
export interface SettingsFileRead {
  /**
   * `cli` (`--settings`), `local`, `project` or `user`; `plugin` for a plugin's hooks file
   * (`hooks/hooks.json`, `{"hooks": {...}}`), of which only `hooks` is read.
   */
  scope: "cli" | "local" | "project" | "user" | "plugin";
  path: string;
  text: string;
  /** For a plugin's file: the plugin's name. */
  plugin?: string;
  /** For a plugin's file: its folder, `${CLAUDE_PLUGIN_ROOT}` in its hooks. */
  pluginRoot?: string;
}

/** `--allowedTools`, `--disallowedTools` and `--permission-mode`, as given. */
export interface PermissionFlags {
  allowedTools?: string[];
  disallowedTools?: string[];
  permissionMode?: string;
}
