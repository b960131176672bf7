import { join } from "../../events/posix_path.ts";
import type { AgentPlaceView, SessionView } from "./sessions.ts";

/**
 * The directory `agent` of the session works in: where its last `agent.moved` put it (a
 * worktree), else the folder its `agent.spawned` recorded (relative to the workspace), else the
 * workspace itself (the main agent, and every agent recorded before agents had places; the main
 * agent of a session started with `rein -w` is in its worktree). `workspace` is where the session
 * runs now, so a workspace that moved keeps its agents' places. Pure.
 */
export function agentCwd(view: SessionView | undefined, agent: string, workspace: string): string {
  const place = agentFolder(view, agent);
  return place === "" ? workspace : join(workspace, place);
}

/**
 * The folder `agent` works in, relative to the workspace (`""`: the workspace itself), and the
 * worktree it is, as the log says (see {@link agentCwd}). Pure.
 */
export function agentPlace(view: SessionView | undefined, agent: string): AgentPlaceView {
  const found = view?.agents[agent];
  if (found?.place) return found.place;
  return { cwd: found?.spawn?.cwd ?? "", worktree: null, from: "" };
}

/** The folder of {@link agentPlace}: relative to the workspace, `""` for the workspace. Pure. */
export function agentFolder(view: SessionView | undefined, agent: string): string {
  return agentPlace(view, agent).cwd;
}
