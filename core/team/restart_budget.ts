/** Restarts a teammate's process may have within {@link RESTART_WINDOW_MS}. */
export const MAX_RESTARTS = 3;

/** The window the restarts are counted in: ten minutes. */
export const RESTART_WINDOW_MS = 10 * 60_000;

/**
 * What the lead's process does after a teammate's unexpected exit, given every unexpected exit of
 * it so far (`at`: ISO times, the last one included) and the time now: start it again while at
 * most {@link MAX_RESTARTS} exits fall within the last {@link RESTART_WINDOW_MS} (so the fourth
 * exit in ten minutes is one too many), else report it crashed. Pure.
 */
export function planRestart(
  exits: readonly { at: string }[],
  now: Date,
): "restart" | "crashed" {
  const since = now.getTime() - RESTART_WINDOW_MS;
  const recent = exits.filter((exit) => Date.parse(exit.at) > since).length;
  return recent <= MAX_RESTARTS ? "restart" : "crashed";
}
