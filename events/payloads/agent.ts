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
  /**
   * The MCP servers its definition names (`mcpServers`: configured servers by name, and its inline
   * servers' names): its MCP tools are theirs only. Absent: every server of its process but those
   * started for another agent's definition.
   */
  mcpServers?: string[];
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
  /**
   * The host it was placed on (`spawn_teammate {host}`, a `host.joined` name): that machine's
   * `rein host` runs its process, in its own working copy. Absent: the lead's process runs it.
   */
  host?: string;
}

/**
 * An agent moved to another folder of the workspace (s18): into a worktree (Claude Code's
 * `EnterWorktree`, a teammate claiming a task bound to one), or back (`ExitWorktree`). From here
 * its file tools and bash are confined to `cwd`, relative paths start there, and a teammate's
 * process is started again with Deno flags for it. Recorded as the moved agent's own event.
 */
export interface AgentMoved {
  /** The folder it works in now, relative to the session's workspace (`""`: the workspace). */
  cwd: string;
  /** The worktree `cwd` is (its name), if it is one. */
  worktree?: string;
}

/** Subagents (s06), and where agents work. */
export interface AgentEvents {
  "agent.spawned": AgentSpawned;
  "agent.moved": AgentMoved;
}

/** The event types of AgentEvents, for validation on read. */
export const AGENT_EVENTS: EventTable<AgentEvents> = {
  "agent.spawned": true,
  "agent.moved": true,
};
