import type { EventTable } from "./_payload.ts";

/**
 * What decided a call, for `rein state` and the model's reason:
 * - `rule`: a permission rule, with the file (or flag) it came from;
 * - `session`: a rule a person allowed for the rest of the session ("don't ask again");
 * - `destructive`: rein's built-in list of destructive commands, whatever the mode;
 * - `read_only`: a read-only tool or command, which never asks;
 * - `mode`: the permission mode, for a call no rule decided;
 * - `hook`: a PreToolUse hook's `permissionDecision`;
 * - `user`: the person's answer to the question;
 * - `headless`: the call would ask and there was nobody to ask, so it was denied.
 */
export type PermissionSource =
  | { kind: "rule"; rule: string; file: string }
  | { kind: "session"; rule: string }
  | { kind: "destructive"; what: string }
  | { kind: "read_only" }
  | { kind: "mode"; mode: string }
  | { kind: "hook"; command: string }
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
  }
  | { kind: "headless"; suggestion: string };

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
}

/** The permission mode changed during a session (Shift+Tab in the REPL). */
export interface PermissionModeChanged {
  mode: string;
}

/** Permission decisions. */
export interface PermissionEvents {
  "permission.decided": PermissionDecided;
  "permission.mode_changed": PermissionModeChanged;
}

/** The event types of PermissionEvents, for validation on read. */
export const PERMISSION_EVENTS: EventTable<PermissionEvents> = {
  "permission.decided": true,
  "permission.mode_changed": true,
};
