import { join } from "node:path";
import type { SessionView } from "./sessions.ts";

/**
 * The directory `agent` of the session works in: the folder its `agent.spawned` recorded (relative
 * to the workspace), else the workspace itself (the main agent, and every agent recorded before
 * agents had places). `workspace` is where the session runs now, so a workspace that moved keeps
 * its agents' places. Pure.
 */
export function agentCwd(view: SessionView | undefined, agent: string, workspace: string): string {
  const place = view?.agents[agent]?.spawn?.cwd;
  return place === undefined || place === "" ? workspace : join(workspace, place);
}
