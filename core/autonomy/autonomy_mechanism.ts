import type { Mechanism } from "../mechanism.ts";
import { hasFeature } from "../settings/session_features.ts";
import type { State } from "../state/state.ts";
import { createCreateTaskTool } from "../tasks/create_task.ts";
import { createReleaseTaskTool } from "../tasks/release_task.ts";
import type { TaskHookRunner } from "../tasks/_task_tool.ts";
import type { AnyTool } from "../tools/tool.ts";
import { AUTONOMY_FEATURE, claimArrivals, claimWake } from "./claim_arrival.ts";
import { mailingCompleteTask } from "./completion_mail.ts";
import { identityReminder } from "./identity_reminder.ts";
import { isIdleRelease } from "./idle_timeout.ts";

/** What the autonomy mechanism is wired with. */
export interface AutonomyOptions {
  /** Runs the session's TaskCreated hooks for `create_task` (live), as the tasks mechanism's. */
  hooks?: TaskHookRunner;
}

/**
 * Autonomous teammates (s17): an idle teammate claims a ready task by itself. Its wake source
 * wakes an idle teammate (its turn ended; no unread mail: mail comes first) when a task is
 * pending, unblocked, unowned and for its role; the turn that wakes takes the claim up as an
 * arrival, recorded (`task.claimed`, then `arrival.injected` with the task as the turn's input)
 * in one append under the log's lock, so two teammates never hold one task, and replay makes the
 * same choice from the same state. Also: `release_task` (a claimed task handed back),
 * `create_task` with a `role`, mail to the lead when a teammate completes a task (what it
 * unblocked), and a teammate's identity put back after a compaction. The idle timeout is the
 * teammate's process's (`idleWait`). The `autonomy` session feature: sessions recorded before it
 * replay as they ran.
 */
export function autonomyMechanism(options: AutonomyOptions = {}): Mechanism {
  const release: readonly AnyTool[] = [createReleaseTaskTool()];
  const createWithRole = createCreateTaskTool(options.hooks, { roles: true }) as AnyTool;
  // Each complete_task wrapped once: a pool made again keeps the same tool.
  const mailing = new WeakMap<AnyTool, AnyTool>();
  return {
    name: "autonomy",
    feature: AUTONOMY_FEATURE,
    // Where the task graph is (the tasks feature): release_task beside its other tools.
    tools: (scope) => hasTaskTools(scope.state, scope.session) ? release : [],
    toolFacts: release,
    filterTools: (_scope, pool) =>
      pool.map((tool) => {
        if (tool.name === "create_task") return createWithRole;
        if (tool.name !== "complete_task") return tool;
        let wrapped = mailing.get(tool);
        if (wrapped === undefined) mailing.set(tool, wrapped = mailingCompleteTask(tool));
        return wrapped;
      }),
    arrivals: claimArrivals,
    // A stopping teammate's process hands its tasks back outside its loop: fed in replay.
    fedEvent: isIdleRelease,
    wake: claimWake,
    stages: {
      afterCompact: (context) =>
        Promise.resolve(identityReminder(context.view(), context.session, context.agent)),
    },
  };
}

function hasTaskTools(state: State, session: string): boolean {
  return hasFeature(state, session, "tasks");
}
