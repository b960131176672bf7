import type { Mechanism } from "../mechanism.ts";
import { TASK_TOOL } from "../agents/child_tools.ts";
import { TEAMS_FEATURE, teamsOn } from "../mail/teams_enabled.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import { liveTeammates, teammatesOf } from "./roster.ts";
import { rosterProjection } from "./roster_projection.ts";
import type { TeammateStarter } from "./spawn_teammate.ts";
import { createSpawnTeammateTool } from "./spawn_teammate_tool.ts";
import { renderTeamEvent, reportTeam } from "./team_render.ts";
import { teammateTask } from "./teammate_task.ts";
import type { TeammateHosts } from "./teammate_hosts.ts";
import { TEAM_HOSTS_FEATURE } from "./host_plan.ts";
import { hasFeature } from "../settings/session_features.ts";

/** What the team mechanism is wired with. */
export interface TeamOptions {
  /** Starts a teammate's process once it is recorded; absent: teammates are only recorded. */
  start?: TeammateStarter;
  /** Stops every teammate process this process started (`Mechanism.close`). */
  stopAll?: () => Promise<void>;
  /** Which hosts are live, where the log is shared (PostgreSQL); absent: no placing on hosts. */
  hosts?: TeammateHosts;
}

const NO_TOOLS: readonly AnyTool[] = [];

/**
 * Teammates (s15): `spawn_teammate` (and Claude Code's `Agent`/`Task` with a `name`) for the
 * session's lead, which records the teammate's `agent.spawned` (with `teammate: {role, mode,
 * prompt}`) and starts its process; the workspace-wide roster (`state.catalog.team`) folded from
 * the teammates' spawns, processes, turns and calls; their render lines and a `team` section in
 * `rein state`. The `teams` session feature, on as mail is (see `teamsEnabled`).
 */
export function teamMechanism(options: TeamOptions = {}): Mechanism {
  const tools: readonly AnyTool[] = [createSpawnTeammateTool(options.start, options.hosts)];
  // Sessions recorded since teammates can be placed on hosts: `spawn_teammate {host}`.
  const placing: readonly AnyTool[] = [
    createSpawnTeammateTool(options.start, options.hosts, true),
  ];
  return {
    name: "team",
    feature: TEAMS_FEATURE,
    catalog: rosterProjection,
    // The lead's process records these for a teammate: replay feeds them at their places.
    fedTypes: ["agent.started", "agent.exited", "agent.stopped"],
    tools: (scope) =>
      !isLead(scope)
        ? NO_TOOLS
        : hasFeature(scope.state, scope.session, TEAM_HOSTS_FEATURE)
        ? placing
        : tools,
    toolFacts: placing,
    filterTools: (scope, pool) =>
      isLead(scope) && pool.some((tool) => tool.name === TASK_TOOL)
        ? pool.map((tool) => tool.name === TASK_TOOL ? teammateTask(tool, options.start) : tool)
        : pool,
    stages: {
      // A resumed lead starts again the teammates that were live (their processes died with its
      // own, or were stopped when it ended); live only: replay has no starter.
      resumed(context) {
        const start = options.start;
        const scope = { state: context.view(), session: context.session, agent: context.agent };
        if (start === undefined || !isLead(scope)) return Promise.resolve([]);
        for (const name of liveTeammates(scope.state, context.session)) {
          start(context.session, name).catch(() => {
            // Its process did not start: the roster keeps it as the log has it.
          });
        }
        return Promise.resolve([]);
      },
    },
    // `rein -p` does not end while a teammate it can see is at work or waiting: its answer (mail
    // to the lead) may still come. Live only (replay has no starter).
    wake: {
      pending: () => [],
      awaited: (scope) =>
        options.start === undefined || !isLead(scope)
          ? []
          : teammatesOf(scope.state, scope.session).flatMap((entry) =>
            entry.status === "working" || entry.status === "waiting"
              ? [{ kind: "teammate", label: entry.name }]
              : []
          ),
    },
    render: renderTeamEvent,
    report: (state, { session }) => reportTeam(state, session),
    ...(options.stopAll ? { close: options.stopAll } : {}),
  };
}

/** Whether the agent of `scope` is its session's lead with teams on: who may spawn teammates. */
function isLead(scope: PoolScope): boolean {
  const view = scope.state.sessions.byId[scope.session];
  if (view === undefined || scope.agent !== view.mainAgent) return false;
  return teamsOn(scope.state, scope.session);
}
