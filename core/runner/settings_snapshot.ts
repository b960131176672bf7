import type {
  PermissionFlags,
  SettingsFileRead,
  SettingsSnapshot,
} from "../../events/event_types.ts";
import { COMPACTION_ENV } from "../compaction/compaction_config.ts";
import { jobSettings } from "../jobs/job_settings.ts";
import { TEAMS_ENV } from "../mail/teams_enabled.ts";
import { recordedSettings } from "../settings/recorded_settings.ts";

/** What a settings snapshot is made of, as read at start. */
export interface SettingsSnapshotInput {
  /** Every settings file read, highest precedence first. */
  sources: SettingsFileRead[];
  /**
   * Whether the workspace is trusted (cli/_trust.ts): when false, the repository's own files'
   * allow rules, permissive mode, hooks and `env` are not applied. Recorded.
   */
  trusted: boolean;
  /** Permission flags from the command line. */
  flags?: PermissionFlags;
  /** The home directory; `/` when unknown. */
  home: string | undefined;
  /** Whether a person can be asked about calls (the REPL). */
  interactive: boolean;
  /** Reads the process's environment. */
  env: (name: string) => string | undefined;
  /** This machine's id, null when it has none. */
  machine: string | null;
  /** The session features of this rein: its mechanisms' (`reinFeatures`). */
  features: readonly string[];
  /** Reports a bad value (a job setting that is not a number). */
  onNotice?: (message: string) => void;
}

/**
 * The settings snapshot a session records when it starts or resumes (see `SettingsSnapshot`):
 * the files and flags as read, the environment variables that shape decisions, background jobs'
 * settings, the session's features, how its request digests are taken and its rules read, and
 * the machine. The sandbox's description is added once it is known. Pure apart from `env`.
 */
export function settingsSnapshot(input: SettingsSnapshotInput): SettingsSnapshot {
  const { env } = input;
  const flags = input.flags ?? {};
  // The settings files' `env` block as applied (a trusted repository's, and the person's)
  // counts as the environment for jobs' settings.
  const settingsEnv = recordedSettings({
    sources: input.sources,
    flags,
    home: "/",
    interactive: false,
    trusted: input.trusted,
  }).settings.env;
  return {
    sources: input.sources,
    flags,
    home: input.home ?? "/",
    interactive: input.interactive,
    env: Object.fromEntries(
      [...COMPACTION_ENV, TEAMS_ENV].flatMap((name) => {
        const value = env(name);
        return value === undefined ? [] : [[name, value]];
      }),
    ),
    jobs: jobSettings((name) => env(name) ?? settingsEnv?.[name], input.onNotice),
    features: [...input.features],
    requestDigest: "messages-last",
    wholeCommandRules: true,
    machine: input.machine,
    trusted: input.trusted,
  };
}
