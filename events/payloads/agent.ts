import type { EventTable } from "./_payload.ts";

/**
 * A subagent was started by a parent's `task` call: recorded as the child's first event, before
 * its prompt, so its model, tools, system prompt and turn cap are on the record (replay and a
 * resume read them from here, never from the definition file again).
 */
export interface AgentSpawned {
  /** The agent whose `task` call started it. */
  parent: string;
  /** The parent's call. */
  callId: string;
  /** The `subagent_type` (`general-purpose`, `Explore`, a definition's name). */
  type: string;
  /** The call's short description of the task. */
  description: string;
  /** The model of its requests, and their output limit. */
  model: string;
  maxTokens: number;
  /** Bound on its model rounds. */
  maxTurns: number;
  /** The tools it may call (rein's names); absent: every tool of the parent's pool but `task`. */
  tools?: string[];
  /** Its own system prompt section (a definition's body), if any. */
  systemPrompt?: string;
  /** The definition's `permissionMode`, as written; the subagent runs in it (see core/permissions). */
  permissionMode?: string;
  /** The definition file it came from; absent for built-in types. */
  path?: string;
  /**
   * The folder it works in, relative to the session's workspace (`packages/api`): its file tools
   * and bash are confined to it, relative paths start there. Absent: the workspace.
   */
  cwd?: string;
  /**
   * Present for a teammate (s15): a long-lived named agent of the session started by the lead's
   * `spawn_teammate` (or Claude Code's `Agent` with a `name`), which runs in its own process.
   * Absent for a subagent of a `task` call.
   */
  teammate?: TeammateSpawn;
}

/** How a teammate was asked for: what its own process starts from. */
export interface TeammateSpawn {
  /** Its role as the lead put it (`reviewer`), if given. */
  role?: string;
  /** Claude Code's `mode` (`plan`: its plan needs the lead's approval), if given. */
  mode?: string;
  /** Its first turn's prompt. */
  prompt: string;
}

/** Subagents (s06). */
export interface AgentEvents {
  "agent.spawned": AgentSpawned;
}

/** The event types of AgentEvents, for validation on read. */
export const AGENT_EVENTS: EventTable<AgentEvents> = {
  "agent.spawned": true,
};
