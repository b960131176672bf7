import type { SettingsFileRead, SettingsSnapshot } from "../../events/event_types.ts";
import { isPersonal, recordedSettings } from "../settings/recorded_settings.ts";
import { isRecord } from "../settings/is_record.ts";
import { hasFeature } from "../settings/session_features.ts";
import type { State } from "../state/state.ts";

/**
 * The environment variable that turns Claude Code's agent teams on (`1`, `true`, `yes`, `on`),
 * recorded with a session when it is set (see `settingsSnapshot`).
 */
export const TEAMS_ENV = "CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS";

/**
 * Whether teams (mail between the agents of `session`) are on, as Claude Code decides it, from
 * what the session recorded at its start or last resume: `CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS`
 * in the environment, else in the settings' `env` block (the person's, or a trusted folder's:
 * an untrusted folder's `env` is not applied), truthy or not; else rein's own setting
 * `"teams": { "enabled": true }` (the highest settings file that says either way deciding; an
 * untrusted folder's files do not count). Off when none says, and in sessions recorded without
 * settings. Cached per snapshot; pure.
 */
export function teamsEnabled(state: State, session: string): boolean {
  const snapshot = state.sessions.byId[session]?.settings;
  if (snapshot === undefined || snapshot === null) return false;
  let enabled = ENABLED.get(snapshot);
  if (enabled === undefined) ENABLED.set(snapshot, enabled = enabledBy(snapshot));
  return enabled;
}

/** Whether teams are on by the recorded `snapshot`, read once per snapshot object. */
const ENABLED = new WeakMap<SettingsSnapshot, boolean>();

function enabledBy(snapshot: SettingsSnapshot): boolean {
  const recorded = recordedSettings(snapshot);
  const env = snapshot.env?.[TEAMS_ENV] ?? recorded.settings.env?.[TEAMS_ENV];
  if (env !== undefined) return isTruthy(env);
  // An untrusted folder's own files do not turn teams on (nor does their `env`, above).
  const said = teamsSetting(
    recorded.files,
    snapshot.trusted !== false,
    (teams) => typeof teams.enabled === "boolean",
  );
  return said?.teams.enabled === true;
}

/** A settings file as `recordedSettings` gives it, as far as its `teams` goes. */
export interface TeamsSettingsFile {
  path: string;
  scope: SettingsFileRead["scope"];
  settings: { other?: Record<string, unknown> };
}

/**
 * The `"teams": {…}` of the highest settings file among `files` (highest precedence first) whose
 * `teams` `says` what is asked, with the file's path: each file on its own (merged settings keep
 * the highest file's whole `teams`, which would hide a lower file's other keys). A repository's
 * own files (project, local) count only in a `trusted` folder. Undefined when none says. Pure.
 */
export function teamsSetting(
  files: readonly TeamsSettingsFile[],
  trusted: boolean,
  says: (teams: Record<string, unknown>) => boolean,
): { teams: Record<string, unknown>; path: string } | undefined {
  for (const file of files) {
    if (!trusted && !isPersonal(file.scope)) continue;
    const teams = file.settings.other?.["teams"];
    if (isRecord(teams) && says(teams)) return { teams, path: file.path };
  }
  return undefined;
}

/** `1`, `true`, `yes` or `on`, in any case, as Claude Code reads its switches. */
function isTruthy(value: string): boolean {
  return /^(1|true|yes|on)$/i.test(value.trim());
}

/** The session feature mail is (`Mechanism.feature`), recorded in `session.started`. */
export const TEAMS_FEATURE = "teams";

/**
 * Whether mail is active in `session`: recorded with the `teams` feature (older logs replay as
 * they ran) and teams enabled ({@link teamsEnabled}). Pure.
 */
export function teamsOn(state: State, session: string): boolean {
  return hasFeature(state, session, TEAMS_FEATURE) && teamsEnabled(state, session);
}
