import type { Harness } from "../core/harness.ts";
import { agentCwd } from "../core/state/agent_place.ts";
import { RELAUNCH_EXIT_CODE } from "./_teammate_flags.ts";

/**
 * In a teammate's process: when its own `agent.moved` puts it in another folder than the one it
 * was started in (it entered a worktree, or auto-claim moved it into its task's), the process
 * exits with {@link RELAUNCH_EXIT_CODE} once the append that moved it is done (the call or
 * arrival that moved it has ended; Deno's flags cannot change in a running process), holding
 * the log's lock between appends. The lead's
 * process starts it again with flags for the new folder, and it resumes its turn from the log, as
 * after a crash: nothing runs twice. `exit` is Deno.exit (tests give another).
 */
export function relaunchWhenMoved(
  harness: Pick<Harness, "store" | "state">,
  session: string,
  agent: string,
  workspace: string,
  exit: (code: number) => void = Deno.exit,
): void {
  const placed = () => agentCwd(harness.state.sessions.byId[session], agent, workspace);
  const startedIn = placed();
  harness.store.subscribe((event) => {
    if (event.type !== "agent.moved" || event.session !== session || event.agent !== agent) {
      return;
    }
    // Once the append that moved it is written, and before anything else is: under the log's
    // lock, in the store's queue, so the process never ends in the middle of a write.
    harness.store.appendDecided(() => {
      if (placed() !== startedIn) exit(RELAUNCH_EXIT_CODE);
      return [];
    }).catch(() => {});
  });
}
