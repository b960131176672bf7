import type { Envelope, PermissionDecided } from "../../events/event_types.ts";
import type { Projection } from "../state/projection.ts";

/** What a session recorded about permissions beyond its settings: mode changes and decisions. */
export interface SessionPermissionLog {
  /** The mode set during the session (Shift+Tab), over the settings' mode. */
  mode?: string;
  /** Rules a person allowed with "don't ask again", for the rest of the session. */
  alwaysRules: string[];
  /** Every decision, in log order. */
  decisions: PermissionDecided[];
}

/** By session id. */
export type PermissionsSlice = Record<string, SessionPermissionLog>;

/** Folds permission decisions and mode changes by session. Pure. */
export const permissionsProjection: Projection<PermissionsSlice> = {
  key: "permissions",
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    // A resume given --permission-mode starts from that mode, not from one switched earlier.
    if (event.type === "session.resumed") {
      const session = slice[event.session];
      if (session && event.data.settings?.flags.permissionMode !== undefined) delete session.mode;
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
    return slice;
  },
};
