import { sliceOf, type State } from "../state/state.ts";
import type { PermissionMode } from "../settings/settings.ts";
import { permissionsProjection, type SessionPermissionLog } from "./permissions_projection.ts";
import { type PermissionPolicy, permissionPolicy, type SourcedRule } from "./policy.ts";
import { parseRule } from "./rule.ts";

/** A session's permissions now: the policy of its recorded settings and its own answers. */
export interface SessionPermissions {
  policy: PermissionPolicy;
  /** Rules a person allowed during the session ("don't ask again"). */
  sessionRules: SourcedRule[];
  log: SessionPermissionLog;
}

/** Policies derived from a snapshot, cached by the snapshot recorded in the state. */
const policies = new WeakMap<object, PermissionPolicy>();

/**
 * A session's permissions now, or undefined for a session recorded without settings (before
 * rein had permissions: its calls all ran).
 */
export function permissionsOf(state: State, session: string): SessionPermissions | undefined {
  const view = state.sessions.byId[session];
  if (!view?.settings) return undefined;
  let policy = policies.get(view.settings);
  if (policy === undefined) {
    policy = permissionPolicy(view.settings, view.workspace);
    policies.set(view.settings, policy);
  }
  const log = sliceOf(state, permissionsProjection)[session] ?? { alwaysRules: [], decisions: [] };
  if (log.mode !== undefined) policy = { ...policy, mode: log.mode as PermissionMode };
  const sessionRules = log.alwaysRules.flatMap((text) => {
    const parsed = parseRule(text);
    return parsed.ok ? [{ ...parsed.rule, file: "" }] : [];
  });
  return { policy, sessionRules, log };
}
