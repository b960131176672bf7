import type { Envelope } from "../../events/event_types.ts";
import type { Projection } from "../state/projection.ts";
import type { State } from "../state/state.ts";

/** The variables each session's bash commands get beyond rein's own: session id → name → value. */
export type SessionEnvSlice = Record<string, Record<string, string>>;

/**
 * What SessionStart hooks wrote to their `CLAUDE_ENV_FILE` (recorded on `hook.ran` as `env`),
 * by session: every later bash command of the session (its subagents' too) gets them, a later
 * hook's value of a name winning, as in Claude Code. A resume keeps them (its own SessionStart
 * hooks may add to them); replay folds them from the log and never runs the hook again. Pure.
 */
export const sessionEnvProjection: Projection<SessionEnvSlice> = {
  key: "session_env",
  canHandle: ["hook.ran"],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    if (event.type !== "hook.ran" || event.data.env === undefined) return slice;
    slice[event.session] = { ...slice[event.session], ...event.data.env };
    return slice;
  },
};

/** The variables `session`'s bash commands get from its hooks (none when the fold is absent). */
export function sessionEnvOf(state: State, session: string): Readonly<Record<string, string>> {
  const slice = state.extensions[sessionEnvProjection.key] as SessionEnvSlice | undefined;
  return slice?.[session] ?? {};
}
