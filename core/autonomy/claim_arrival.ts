import type { Arrival } from "../loop/arrivals.ts";
import type { Wake, WakeSource } from "../loop/wake_source.ts";
import { hasFeature } from "../settings/session_features.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import { teammatesOf } from "../team/roster.ts";
import { catalogSliceOf } from "../state/catalog.ts";
import { awaitsModel } from "../state/conversation.ts";
import { taskGraphProjection } from "../tasks/tasks_projection.ts";
import {
  AUTONOMY_SOURCE,
  claimEvents,
  claimKey,
  claimText,
  heldTasks,
  type IdleClaim,
  idleClaim,
} from "./idle_claim.ts";

/** The session feature of autonomous teammates (older sessions replay without it). */
export const AUTONOMY_FEATURE = "autonomy";

/** The idle claim of `scope`'s agent where the session has autonomous teammates. Pure. */
function claimOf(scope: PoolScope): IdleClaim | undefined {
  if (!hasFeature(scope.state, scope.session, AUTONOMY_FEATURE)) return undefined;
  return idleClaim(scope.state, scope.session, scope.agent);
}

/**
 * The arrival that claims a task for `scope`'s idle teammate (see `idleClaim`): its text is the
 * task, its events the claim (and the move into the task's worktree), recorded in one append
 * under the log's lock with its `arrival.injected`, on the state caught up with every writer. At
 * the log's last seq: what made it claimable is the last thing that happened. Pure.
 */
export function claimArrivals(scope: PoolScope): Arrival[] {
  const claim = claimOf(scope);
  if (claim === undefined) return [];
  return [{
    source: AUTONOMY_SOURCE,
    key: claimKey(claim.task.id),
    seq: scope.state.lastSeq,
    text: claimText(claim),
    events: claimEvents(scope.state, scope.session, scope.agent, claim),
  }];
}

/**
 * What wakes an idle teammate by itself (`Mechanism.wake`): a task it can claim. Asked again
 * after each event its process folds, so a task that becomes claimable (its last blocker
 * completed, it was created or released) wakes idle teammates at once; the teammate's process
 * follows the log for other processes' appends (`waitForAppend`, mail's live side). Pure.
 */
export const claimWake: WakeSource = {
  pending(scope): readonly Wake[] {
    const claim = claimOf(scope);
    if (claim === undefined) return [];
    return [{ source: AUTONOMY_SOURCE, key: claimKey(claim.task.id), seq: scope.state.lastSeq }];
  },
  // `rein -p` does not end while an idle teammate of its lead is about to claim a task, or has
  // claimed one whose turn has not ended (its process started again in the task's worktree).
  awaited(scope) {
    const view = scope.state.sessions.byId[scope.session];
    if (view === undefined || view.mainAgent !== scope.agent) return [];
    if (!hasFeature(scope.state, scope.session, AUTONOMY_FEATURE)) return [];
    const graph = catalogSliceOf(scope.state.catalog, taskGraphProjection);
    return teammatesOf(scope.state, scope.session).flatMap((entry) => {
      const claim = idleClaim(scope.state, scope.session, entry.name);
      if (claim !== undefined) {
        return [{ kind: "teammate", label: `${entry.name} (claiming #${claim.task.id})` }];
      }
      const agent = view.agents[entry.name];
      if (entry.status !== "idle" || agent === undefined || !awaitsModel(agent)) return [];
      const held = heldTasks(graph, scope.session, entry.name)[0];
      return held === undefined
        ? []
        : [{ kind: "teammate", label: `${entry.name} (working on #${held.id})` }];
    });
  },
};
