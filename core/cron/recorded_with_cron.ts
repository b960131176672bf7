import type { State } from "../state/state.ts";

/**
 * Whether `session` was recorded by a rein with cron: its requests carried the cron tools, and
 * its agents get firings. Its settings say so (`cronTools`), or they hold background jobs'
 * settings (jobs came after cron, before `cronTools` was recorded). Sessions recorded without
 * settings or by a rein before cron get no part of cron, so they replay as they ran. Pure.
 */
export function recordedWithCron(state: State, session: string): boolean {
  const settings = state.sessions.byId[session]?.settings;
  return settings?.cronTools === true || settings?.jobs !== undefined;
}
