import type { SettingsSnapshot } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";

/**
 * The features (mechanisms) a session was recorded with, by its settings as of the start or the
 * last resume (`settings.features`). A session recorded before the list has them derived from
 * what that rein recorded instead, as it ran: no settings at all (before todos and subagents),
 * none; otherwise `todos` and `agents`, `tasks` with `taskTools`, `jobs` with job settings, and
 * `cron` with `cronTools` or job settings (jobs came after cron, before `cronTools` was
 * recorded). Cached per snapshot object; pure.
 */
export function sessionFeatures(settings: SettingsSnapshot | null): readonly string[] {
  if (settings === null) return NONE;
  if (settings.features !== undefined) return settings.features;
  let derived = DERIVED.get(settings);
  if (derived === undefined) {
    const jobs = settings.jobs !== undefined;
    derived = [
      "todos",
      "agents",
      ...(settings.taskTools === true ? ["tasks"] : []),
      ...(settings.cronTools === true || jobs ? ["cron"] : []),
      ...(jobs ? ["jobs"] : []),
    ];
    DERIVED.set(settings, derived);
  }
  return derived;
}

/** Whether `session` of `state` was recorded with `feature` (see {@link sessionFeatures}). Pure. */
export function hasFeature(state: State, session: string, feature: string): boolean {
  return sessionFeatures(state.sessions.byId[session]?.settings ?? null).includes(feature);
}

const NONE: readonly string[] = [];
const DERIVED = new WeakMap<SettingsSnapshot, readonly string[]>();
