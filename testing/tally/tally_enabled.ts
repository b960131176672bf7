import { recordedSettings } from "../../core/settings/recorded_settings.ts";
import { isRecord } from "../../core/settings/is_record.ts";
import type { State } from "../../core/state/state.ts";

/**
 * Whether the tally is on for `session`: its settings as recorded at its start or last resume
 * enable it (`"tally": { "enabled": true }` in a settings file, the highest file that says either
 * way deciding), so a session that does not ask for it runs and replays as without the tally.
 * Pure.
 */
export function tallyEnabled(state: State, session: string): boolean {
  const snapshot = state.sessions.byId[session]?.settings;
  if (snapshot === undefined || snapshot === null) return false;
  for (const file of recordedSettings(snapshot).files) {
    const tally = file.settings.other?.["tally"];
    if (isRecord(tally) && typeof tally.enabled === "boolean") return tally.enabled;
  }
  return false;
}
