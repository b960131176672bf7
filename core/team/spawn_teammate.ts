import type { AgentSpawned } from "../../events/event_types.ts";
import { agentTypesOf } from "../agents/agent_set.ts";
import { DEFAULT_AGENT_TYPE } from "../agents/built_in_agents.ts";
import { planSpawn } from "../agents/plan_spawn.ts";
import type { ToolCallContext, ToolResult } from "../tools/tool.ts";
import { liveTeammates } from "./roster.ts";
import { chooseTeammateName } from "./teammate_name.ts";
import { placeTeammate, type TeammateHosts } from "./teammate_hosts.ts";

/**
 * How many teammates of one session may be live at once (working, idle or waiting): each is a
 * process with its own memory and model spend, so a lead looping on spawns stops here.
 */
export const MAX_LIVE_TEAMMATES = 16;

/** What a teammate is asked for with (`spawn_teammate`, or Claude Code's `Agent` with `name`). */
export interface TeammateRequest {
  /** The name asked for (a taken one gets `-2`, `-3`). */
  name: string;
  /** Its first turn's prompt. */
  prompt: string;
  role?: string | undefined;
  /** A model or an alias (`sonnet`); absent: its type's, else the lead's. */
  model?: string | undefined;
  /** Claude Code's mode (`plan`). */
  mode?: string | undefined;
  /** The agent type it is (Claude Code's `subagent_type`); absent: `general-purpose`. */
  type?: string | undefined;
  /**
   * The host to run it on (rein's: a live `rein host`'s name); absent: the lead's process runs
   * it. Only on a log several machines share.
   */
  host?: string | undefined;
}

/**
 * Starts the process of the teammate just recorded (`rein teammate --session S --agent NAME`);
 * absent where none may start (replay, a test's harness), where the teammate stays spawned.
 */
export type TeammateStarter = (session: string, name: string) => Promise<void>;

/**
 * Spawn a teammate of the calling agent's session: only the session's lead may (teammates and
 * subagents cannot); its name is checked and made unique (see `chooseTeammateName`); its
 * `agent.spawned` (model, tools, turn cap, place as a subagent of its type would have, plus
 * `teammate: {role, mode, prompt}`) is recorded as the teammate's own first event before its
 * process is started with `start`. A teammate placed on a host (`request.host`, checked live
 * through `hosts`) is recorded with `teammate.host` and no folder of the lead's (it works in the
 * host's working copy): that host's `rein host` starts it, `start` does not. Returns the call's
 * result; never throws.
 */
export async function spawnTeammate(
  request: TeammateRequest,
  context: ToolCallContext,
  start: TeammateStarter | undefined,
  hosts?: TeammateHosts,
): Promise<ToolResult> {
  const state = context.view();
  const view = state.sessions.byId[context.session];
  const lead = view?.agents[context.agent];
  if (view === undefined || lead === undefined) {
    return { content: "The calling agent is not in the log", isError: true };
  }
  if (context.agent !== view.mainAgent || lead.spawn !== null) {
    return { content: "Teammates cannot spawn teammates: only the lead can", isError: true };
  }
  if (!context.sibling) {
    return {
      content: "Teammates cannot start here: no agent loop drives this call",
      isError: true,
    };
  }
  const wanted = request.name.trim();
  // The call run again (replay of a composite call, a continued turn): it spawned already.
  const earlier = Object.values(view.agents).find((agent) =>
    agent.spawn?.teammate !== undefined && agent.spawn.callId === context.callId &&
    agent.spawn.parent === context.agent
  );
  if (earlier !== undefined) return { content: spawnedText(earlier.name, wanted) };
  const live = liveTeammates(state, context.session);
  if (live.length >= MAX_LIVE_TEAMMATES) {
    return {
      content: `Cannot spawn another teammate: ${live.length} are live (${live.join(", ")}), ` +
        `at most ${MAX_LIVE_TEAMMATES}; shut one down first (request_shutdown)`,
      isError: true,
    };
  }
  const chosen = chooseTeammateName(wanted, new Set(Object.keys(view.agents)));
  if ("error" in chosen) return { content: chosen.error, isError: true };
  const placed = request.host === undefined
    ? undefined
    : await placeTeammate(request.host.trim(), state, hosts);
  if (placed !== undefined && "error" in placed) return { content: placed.error, isError: true };
  const typeName = request.type ?? DEFAULT_AGENT_TYPE;
  const types = agentTypesOf(state, context.session);
  const definition = types.find((type) => type.name === typeName);
  if (definition === undefined) {
    return {
      content: `Unknown subagent_type "${typeName}". Available types: ` +
        types.map((type) => type.name).join(", "),
      isError: true,
    };
  }
  let planned: AgentSpawned;
  try {
    planned = planSpawn(
      request.model === undefined ? definition : { ...definition, model: request.model },
      lead,
      { callId: context.callId, description: request.role ?? chosen.name },
    );
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { content: `Cannot start teammate "${chosen.name}": ${why}`, isError: true };
  }
  // Placed on a host, it works in the host's working copy: no folder of the lead's.
  const { cwd: _, ...elsewhere } = planned;
  const spawned: AgentSpawned = {
    ...(placed === undefined ? planned : elsewhere),
    teammate: {
      ...(request.role === undefined ? {} : { role: request.role }),
      ...(request.mode === undefined ? {} : { mode: request.mode }),
      prompt: request.prompt,
      ...(placed === undefined ? {} : { host: placed.host }),
    },
  };
  await context.sibling(chosen.name).record([{ type: "agent.spawned", data: spawned }]);
  if (start !== undefined && placed === undefined) {
    try {
      await start(context.session, chosen.name);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        content: `Teammate "${chosen.name}" was spawned but its process did not start: ${why}`,
        isError: true,
      };
    }
  }
  return { content: spawnedText(chosen.name, wanted, placed?.host) };
}

/** The result of a spawn of `name`, asked for as `wanted`. Pure. */
function spawnedText(name: string, wanted: string, host?: string): string {
  const renamed = name === wanted ? "" : ` ("${wanted}" was taken)`;
  const where = host === undefined ? "in its own process" : `in its own process on host ${host}`;
  return `Spawned teammate "${name}"${renamed}, working on its prompt ${where}. ` +
    `Write to it with send_message {to: "${name}"}; its messages reach you as ` +
    "<teammate-message> blocks.";
}
