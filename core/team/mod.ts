/**
 * Teammates (s15): long-lived named agents of a session, each in its own process, spawned by the
 * lead (`spawn_teammate`, Claude Code's `Agent` with `name`), listed in the workspace's roster.
 *
 * @module
 */
export {
  HOST_AGENT,
  HOST_NAME,
  type HostPlan,
  hostSession,
  type HostTeammate,
  type HostWorld,
  insideFolder,
  isHostEvent,
  lostTeammates,
  placedSessions,
  planHost,
  TEAM_HOSTS_FEATURE,
} from "./host_plan.ts";
export { placeTeammate, type TeammateHosts } from "./teammate_hosts.ts";
export { MAX_RESTARTS, planRestart, RESTART_WINDOW_MS } from "./restart_budget.ts";
export {
  actionOf,
  emptyRoster,
  evolveRoster,
  type HostEntry,
  type Roster,
  rosterKey,
  rosterProjection,
  type TeammateEntry,
  type TeammateExit,
  type TeammateStatus,
  type TeammateUsage,
} from "./roster_projection.ts";
export { isLive, liveTeammates, rosterOf, teammateCost, teammatesOf } from "./roster.ts";
export { spawnTeammate, type TeammateRequest, type TeammateStarter } from "./spawn_teammate.ts";
export {
  createSpawnTeammateTool,
  SPAWN_TEAMMATE_INPUT_SCHEMA,
  type SpawnTeammateInput,
  TEAMMATE_MODES,
} from "./spawn_teammate_tool.ts";
export { teamMechanism, type TeamOptions } from "./team_mechanism.ts";
export { renderTeamEvent, reportTeam, teamLines, teammateLine } from "./team_render.ts";
export { chooseTeammateName, type NameChoice, TEAMMATE_NAME } from "./teammate_name.ts";
export { teammateTask } from "./teammate_task.ts";
