import type { EventTable } from "./_payload.ts";

/**
 * What decided a call, for `rein state` and the model's reason:
 * - `rule`: a permission rule, with the file (or flag) it came from;
 * - `session`: a rule a person allowed for the rest of the session ("don't ask again");
 * - `destructive`: rein's built-in list of destructive commands, whatever the mode;
 * - `read_only`: a read-only tool or command, which never asks;
 * - `mode`: the permission mode, for a call no rule decided;
 * - `hook`: a PreToolUse hook's `permissionDecision`, or a PermissionRequest hook's decision (with
 *   the input, rules and mode it gave);
 * - `user`: the person's answer to the question;
 * - `headless`: the call would ask and there was nobody to ask, so it was denied; `suggestion`
 *   is the rule that would allow it, absent where no rule can (a write under `.claude/` or
 *   `.git/`, which only a person or `bypassPermissions` allows).
 */
export type PermissionSource =
  | { kind: "rule"; rule: string; file: string }
  | { kind: "session"; rule: string }
  | { kind: "destructive"; what: string }
  | { kind: "read_only" }
  | { kind: "mode"; mode: string }
  | {
    kind: "hook";
    command: string;
    /** A PermissionRequest hook's `updatedInput` the call ran with (rein's field names). */
    input?: Record<string, unknown>;
    /** Allow rules its `updatedPermissions` added for the rest of the session. */
    rules?: string[];
    /** Where they were saved too (`.claude/settings.local.json`), for `localSettings`. */
    savedTo?: string;
    /** The mode its `updatedPermissions` switched the session to. */
    mode?: string;
    /** Its deny said `interrupt: true`: the turn stopped too. */
    interrupt?: true;
  }
  | {
    kind: "user";
    answer: "yes" | "always" | "no";
    /** The rule saved for "always", and where. */
    rule?: string;
    savedTo?: string;
    /** The person's words for "no", passed to the model. */
    reason?: string;
    /** The turn was cancelled at the question (Ctrl-C). */
    cancelled?: boolean;
    /**
     * The input the call ran with instead of the model's, when the one who answered changed it
     * (the Agent SDK's `updatedInput`), in rein's field names.
     */
    input?: Record<string, unknown>;
  }
  | { kind: "headless"; suggestion?: string };

/** A permission decision about one call, recorded before it runs or is closed. */
export interface PermissionDecided {
  callId: string;
  tool: string;
  decision: "allow" | "deny";
  source: PermissionSource;
  /** Why, in words: what the model reads when denied, what `rein state` shows. */
  reason: string;
  /** When a person was asked: what asked (a rule, or the mode). */
  asked?: string;
  /**
   * A write under the project's `.claude/` or `.git/` (the real path, symlinks resolved), which
   * asks a person whatever the rules and hooks say: the file this decision is about. write_file
   * and edit_file write under those folders only the file an allowing decision of their call
   * names here. Absent for every other call, and in sessions recorded before rein asked so.
   */
  protectedPath?: string;
}

/**
 * Where the path a file tool was given really leads (symlinks resolved), read live by the gate
 * before it judges the call and recorded only when it differs from the path as written, so
 * replay judges on the same real path without reading the disk. Paths inside the workspace are
 * given under the workspace as the session names it.
 */
export interface PermissionPathResolved {
  callId: string;
  /** The path as written, made absolute against the working directory. */
  path: string;
  /** Its real path (the part that does not exist yet appended to its nearest real ancestor). */
  realPath: string;
  /** Each path a symbolic link on the way led to, in order, when any did. */
  via?: string[];
}

/** The permission mode changed during a session (Shift+Tab in the REPL). */
export interface PermissionModeChanged {
  mode: string;
}

/** Permission decisions. */
export interface PermissionEvents {
  "permission.decided": PermissionDecided;
  "permission.mode_changed": PermissionModeChanged;
  "permission.path_resolved": PermissionPathResolved;
}

/** The event types of PermissionEvents, for validation on read. */
export const PERMISSION_EVENTS: EventTable<PermissionEvents> = {
  "permission.decided": true,
  "permission.mode_changed": true,
  "permission.path_resolved": true,
};
