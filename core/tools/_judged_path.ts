import { relative, resolve } from "../../events/posix_path.ts";
import { permissionsProjection } from "../permissions/permissions_projection.ts";
import { sliceOf } from "../state/state.ts";
import type { ToolCallContext } from "./tool.ts";

/**
 * The file under `.claude/` or `.git/` the permission gate let this call write (a person said
 * yes, or `bypassPermissions`), as a real path under `root` (the workspace's real root), from
 * the call's recorded `permission.decided`; undefined when the gate judged no such file for it,
 * or no gate ran (a tool run on its own). Pure over the state.
 */
export function judgedProtectedPath(context: ToolCallContext, root: string): string | undefined {
  const state = context.view();
  if (!(permissionsProjection.key in state.extensions)) return undefined;
  const decided = sliceOf(state, permissionsProjection)[context.session]?.decisions.findLast((d) =>
    d.callId === context.callId
  );
  if (decided?.decision !== "allow" || decided.protectedPath === undefined) return undefined;
  const workspace = state.sessions.byId[context.session]?.workspace;
  if (workspace === undefined) return undefined;
  return resolve(root, relative(workspace, decided.protectedPath));
}
