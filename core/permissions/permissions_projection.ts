import type { Envelope, PermissionDecided } from "../../events/event_types.ts";
import type { Projection } from "../state/projection.ts";

/** What a session recorded about permissions beyond its settings: mode changes and decisions. */
export interface SessionPermissionLog {
  /** The mode set during the session (Shift+Tab), over the settings' mode. */
  mode?: string;
  /**
   * Rules a person allowed with "don't ask again" (or a PermissionRequest hook's
   * `updatedPermissions` added), for the rest of the session.
   */
  alwaysRules: string[];
  /** Every decision, in log order. */
  decisions: PermissionDecided[];
  /**
   * The machine the session's current part was recorded on (its start or last resume), when that
   * recorded one (null: a machine without a key).
   */
  machine?: string | null;
  /**
   * Whether a part of the session before a resume was recorded elsewhere (another machine, a log
   * a repository shipped, or before machine ids): what that part recorded grants nothing.
   */
  foreign?: true;
}

/** By session id. */
export type PermissionsSlice = Record<string, SessionPermissionLog>;

/**
 * Folds permission decisions and mode changes by session. A resume that records its machine
 * (every resume since machine ids) starts from the mode of its own settings and flags, and keeps
 * the session's "always" rules only when the part before it was recorded on that same machine: a
 * session recorded elsewhere (another machine, a log a repository shipped) hands none of its
 * grants to the person who continues it. Pure.
 */
export const permissionsProjection: Projection<PermissionsSlice> = {
  key: "permissions",
  canHandle: [
    "session.started",
    "session.resumed",
    "permission.decided",
    "permission.mode_changed",
  ],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    if (event.type === "session.started" || event.type === "session.resumed") {
      // Without settings: a subagent continued by its parent, or a session from before rein had
      // permissions. Neither changes what the session's process may do.
      const settings = event.data.settings;
      if (settings === undefined) return slice;
      if (settings.machine === undefined) {
        // Recorded before machine ids: a resume given --permission-mode started from that mode,
        // not from one switched earlier (and kept it otherwise).
        const session = slice[event.session];
        if (session === undefined) return slice;
        if (event.type === "session.resumed" && settings.flags.permissionMode !== undefined) {
          delete session.mode;
        }
        delete session.machine;
        return slice;
      }
      const session = slice[event.session] ??= { alwaysRules: [], decisions: [] };
      if (event.type === "session.resumed") {
        delete session.mode;
        if (settings.machine === null || session.machine !== settings.machine) {
          session.alwaysRules = [];
          session.foreign = true;
        }
      }
      session.machine = settings.machine;
      return slice;
    }
    if (event.type !== "permission.decided" && event.type !== "permission.mode_changed") {
      return slice;
    }
    const session = slice[event.session] ??= { alwaysRules: [], decisions: [] };
    if (event.type === "permission.mode_changed") {
      session.mode = event.data.mode;
      return slice;
    }
    session.decisions.push(event.data);
    const { source } = event.data;
    if (source.kind === "user" && source.answer === "always" && source.rule !== undefined) {
      session.alwaysRules.push(source.rule);
    }
    // A PermissionRequest hook's updatedPermissions, as if the person had chosen them.
    if (source.kind === "hook" && event.data.decision === "allow") {
      if (source.rules !== undefined) session.alwaysRules.push(...source.rules);
      if (source.mode !== undefined) session.mode = source.mode;
    }
    return slice;
  },
};
