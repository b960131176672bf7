import type { Tool } from "../tools/tool.ts";
import { spawnTeammate, type TeammateRequest, type TeammateStarter } from "./spawn_teammate.ts";
import type { TeammateHosts } from "./teammate_hosts.ts";

/** Input of `spawn_teammate`. */
export interface SpawnTeammateInput {
  name: string;
  prompt: string;
  role?: string;
  model?: string;
  mode?: string;
  host?: string;
}

/** The modes a teammate may be spawned in (Claude Code's `mode` of `Agent`). */
export const TEAMMATE_MODES: readonly string[] = ["default", "acceptEdits", "plan"];

/**
 * The JSON Schema the model sees and its input is checked against, in a session recorded before
 * teammates could be placed on hosts (see {@link SPAWN_TEAMMATE_HOST_SCHEMA}).
 */
export const SPAWN_TEAMMATE_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    name: {
      type: "string",
      description: "The teammate's name, how you and the others address it " +
        "(letters, digits, - and _; a taken name gets -2)",
    },
    prompt: {
      type: "string",
      minLength: 1,
      description: "Its first task, with everything it needs: it sees none of your conversation",
    },
    role: { type: "string", description: "Its role in the team (reviewer, tester)" },
    model: { type: "string", description: "Its model (sonnet, opus, haiku); default: yours" },
    mode: {
      type: "string",
      enum: [...TEAMMATE_MODES],
      description: '"plan": it must have its plan approved before it changes anything',
    },
  },
  required: ["name", "prompt"],
  additionalProperties: false,
};

/** {@link SPAWN_TEAMMATE_INPUT_SCHEMA} with rein's `host` (sessions with `team_hosts`). */
export const SPAWN_TEAMMATE_HOST_SCHEMA: Record<string, unknown> = {
  ...SPAWN_TEAMMATE_INPUT_SCHEMA,
  properties: {
    ...SPAWN_TEAMMATE_INPUT_SCHEMA.properties as Record<string, unknown>,
    host: {
      type: "string",
      description: "The machine to run it on: the name of a live `rein host` sharing this " +
        "log (it works in that machine's working copy); default: this machine",
    },
  },
};

/**
 * `spawn_teammate {name, prompt, role?, model?, mode?}` (s15): a long-lived named teammate of
 * the session, which works in its own process and is reached by mail (see `spawnTeammate`).
 * `start` starts its process (absent: it is only recorded). `placing` (a session recorded with
 * `team_hosts`) gives its schema rein's `host`, a live host of `hosts` (absent: none may be
 * placed on, the log is no shared one). An effect: replay serves its
 * recorded result, and the teammate's `agent.spawned` is fed at its place.
 */
export function createSpawnTeammateTool(
  start: TeammateStarter | undefined,
  hosts?: TeammateHosts,
  placing = false,
): Tool<SpawnTeammateInput> {
  return {
    name: "spawn_teammate",
    description: "Starts a teammate: a named agent of this session that works on its own, in " +
      "its own process, on the prompt you give it, and stays (idle between tasks) until it is " +
      "shut down. Address it with send_message by its name; what it sends you reaches you as " +
      "<teammate-message>. Teammates cannot spawn teammates.",
    inputSchema: placing ? SPAWN_TEAMMATE_HOST_SCHEMA : SPAWN_TEAMMATE_INPUT_SCHEMA,
    kind: "effect",
    readOnly: false,
    // A teammate does nothing itself: each of its calls passes its own gate.
    permission: "read-only",
    concurrent: false,
    summarize: (input) => `${input.name}${input.role === undefined ? "" : ` (${input.role})`}`,
    run: (input, context) => spawnTeammate(input satisfies TeammateRequest, context, start, hosts),
  };
}
