import { isAbsolute, normalize, relative, resolve } from "../../events/posix_path.ts";
import type { NewEvent } from "../../events/event_types.ts";
import { agentPlace } from "../state/agent_place.ts";
import type { SessionView } from "../state/sessions.ts";
import type { State } from "../state/state.ts";
import { type WorktreeEntry, worktreesOf } from "./worktree_catalog.ts";

/** The roster's slice as this file reads it (core/team is not imported: see `holderOf`). */
interface RosterSlice {
  byKey: Record<string, { session: string; name: string; status: string } | undefined>;
}

/**
 * Where `cwd` is in the session's workspace, as `agent.moved` records it: relative to the
 * workspace (`""` the workspace), and the live worktree it is inside, if any; or why an agent
 * cannot work there. `cwd` is absolute (inside the workspace the session recorded) or relative to
 * the workspace. A worktree named by `worktree` must be live and hold `cwd`. Pure.
 */
export function placeIn(
  state: State,
  session: string,
  cwd: string,
  worktree?: string,
): { cwd: string; worktree?: string } | { why: string } {
  const view = state.sessions.byId[session];
  if (view === undefined) return { why: `No session "${session}" in the log` };
  if (cwd.includes("\0")) return { why: `The folder ${JSON.stringify(cwd)} is not a path` };
  const inside = relative(view.workspace, resolve(view.workspace, normalize(cwd)));
  if (inside === ".." || inside.startsWith("../") || isAbsolute(inside)) {
    return { why: `The folder "${cwd}" is outside the workspace (${view.workspace})` };
  }
  if (inside.split("/").some((part) => /^\.(git|rein)$/i.test(part))) {
    return { why: `The folder "${cwd}" is inside .git or .rein, where agents do not work` };
  }
  const found = worktreeHolding(state, inside);
  if (worktree !== undefined && found?.name !== worktree) {
    const known = worktreesOf(state).byName[worktree];
    return known === undefined || known.state === "removed"
      ? { why: `No worktree named "${worktree}"` }
      : { why: `The folder "${cwd}" is not in worktree "${worktree}" (${known.path})` };
  }
  return found === undefined ? { cwd: inside } : { cwd: inside, worktree: found.name };
}

/**
 * Why `agent` of `session` cannot move to `cwd` (see {@link placeIn}): a folder outside the
 * workspace, or inside a worktree another agent of the session works in (see {@link holderOf});
 * undefined when it can. Pure.
 */
export function moveRefusal(
  state: State,
  session: string,
  agent: string,
  cwd: string,
  worktree?: string,
): string | undefined {
  const place = placeIn(state, session, cwd, worktree);
  if ("why" in place) return place.why;
  if (place.worktree === undefined) return undefined;
  const holder = holderOf(state, session, place.worktree, agent);
  return holder === undefined
    ? undefined
    : `Worktree "${place.worktree}" is ${holder}'s: another agent works in it`;
}

/**
 * The decider of a move: `agent` of `session` goes to work in `cwd` (a worktree, or back to the
 * workspace), recorded as its `agent.moved` (none when it is there already). What A1's auto-claim
 * appends with a claim of a task bound to a worktree, and what `enter_worktree` /
 * `exit_worktree` record. Throws the refusal of {@link moveRefusal}. Pure.
 */
export function moveAgent(
  state: State,
  session: string,
  agent: string,
  cwd: string,
  worktree?: string,
): NewEvent[] {
  const refusal = moveRefusal(state, session, agent, cwd, worktree);
  if (refusal !== undefined) throw new Error(refusal);
  const place = placeIn(state, session, cwd, worktree) as { cwd: string; worktree?: string };
  const now = agentPlace(state.sessions.byId[session], agent);
  if (now.cwd === place.cwd && (now.worktree ?? undefined) === place.worktree) return [];
  return [{ type: "agent.moved", session, agent, data: place }];
}

/**
 * The live worktree of the workspace whose folder holds `folder` (relative to the workspace),
 * the innermost when names nest. Pure.
 */
export function worktreeHolding(state: State, folder: string): WorktreeEntry | undefined {
  let best: WorktreeEntry | undefined;
  for (const entry of Object.values(worktreesOf(state).byName)) {
    if (entry.state === "removed") continue;
    if (folder !== entry.path && !folder.startsWith(`${entry.path}/`)) continue;
    if (best === undefined || entry.path.length > best.path.length) best = entry;
  }
  return best;
}

/**
 * The agent of `session` other than `except` that works in worktree `name` now, or undefined:
 * one placed there that is still at it — a teammate not stopped (a crashed one is started again
 * there), the main agent, or a subagent whose turn is running. The roster is read by its shape
 * (state.catalog.team): core/team imports agents, which this folder imports. Pure.
 */
export function holderOf(
  state: State,
  session: string,
  name: string,
  except: string,
): string | undefined {
  const view = state.sessions.byId[session];
  if (view === undefined) return undefined;
  const entry = worktreesOf(state).byName[name];
  if (entry === undefined) return undefined;
  const roster = state.catalog?.["team"] as RosterSlice | undefined;
  for (const agent of Object.keys(view.agents)) {
    if (agent === except) continue;
    const folder = agentPlace(view, agent).cwd;
    if (folder !== entry.path && !folder.startsWith(`${entry.path}/`)) continue;
    if (stillThere(view, agent, roster)) return agent;
  }
  return undefined;
}

function stillThere(view: SessionView, agent: string, roster: RosterSlice | undefined): boolean {
  if (agent === view.mainAgent) return true;
  const teammate = roster?.byKey[`${view.id}/${agent}`];
  if (view.agents[agent]?.spawn?.teammate !== undefined) return teammate?.status !== "stopped";
  return view.agents[agent]?.status === "unfinished";
}
