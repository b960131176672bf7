import type { AgentMoved } from "../events/event_types.ts";
import type { WorktreeCreated } from "../events/payloads/worktree.ts";
import type { State } from "../core/state/state.ts";
import {
  chosenName,
  liveWorktree,
  makeWorktree,
  NO_WORKTREE_SETUP,
  WorktreeGit,
  worktreeNameProblem,
  type WorktreeSetup,
} from "../core/worktrees/mod.ts";

/** Where `rein -w` starts the session: the main agent's place, and the worktree made for it. */
export interface WorktreeStart {
  /** `session.started`'s `place`. */
  place: AgentMoved;
  /** The worktree git made now, to record as the session's `worktree.created`; none when it was there. */
  created?: WorktreeCreated;
}

/**
 * `rein -w [name]` / `--worktree [name]` (Claude Code's `claude -w`): the worktree
 * `.claude/worktrees/<name>` the new session starts in — made now with git on a new branch
 * `worktree-<name>` from HEAD, or the live one of that name the log knows — with a name chosen
 * (`bright-running-fox`) when none is given, set up by the `worktree` settings (`setup`) and
 * `.worktreeinclude`. Throws outside a git repository, for a name that
 * does not do, or when git fails. Live only (runs git).
 */
export async function startInWorktree(
  workspace: string,
  state: State,
  name: string | true,
  setup: WorktreeSetup = NO_WORKTREE_SETUP,
  git: WorktreeGit = new WorktreeGit(workspace),
): Promise<WorktreeStart> {
  const head = await git.resolve("HEAD");
  if (!head.ok) {
    throw new Error(`rein -w needs a git repository with a commit: "${workspace}": ${head.why}`);
  }
  const chosen = name === true ? chosenName(state) : name;
  const bad = worktreeNameProblem(chosen);
  if (bad !== undefined) throw new Error(bad);
  const known = liveWorktree(state, chosen);
  if (known !== undefined) return { place: { cwd: known.path, worktree: chosen } };
  const made = await makeWorktree(git, state, { name: chosen }, setup);
  if ("why" in made) throw new Error(made.why);
  return { place: { cwd: made.created.path, worktree: chosen }, created: made.created };
}
