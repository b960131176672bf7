import type { EventTable } from "./_payload.ts";

/** What a teammate's process was allowed: its pid and the Deno flags it was started with. */
export interface TeammateProcess {
  pid: number;
  /** The Deno permission flags of its process (`--allow-read=…`, `--allow-net=…`). */
  flags: string[];
}

/**
 * The lead's process started a teammate's process (its first start, or a restart after an
 * unexpected exit). Recorded by the lead's process with the teammate as the envelope's agent.
 */
export interface AgentStarted {
  process: TeammateProcess;
  /** Which start this is: 0 the first, 1 the first restart. */
  restart: number;
}

/**
 * A teammate's process exited without being asked to (a crash, SIGKILL): recorded by the lead's
 * process, which starts it again unless its restart budget is spent (then it is crashed).
 */
export interface AgentExited {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  /** The signal that ended it (`SIGKILL`), or null. */
  signal: string | null;
}

/**
 * A teammate stopped for good: asked to (`shutdown`), with the lead (`lead_exited`), crashed, or
 * by itself after it was idle for the idle timeout with nothing to claim (`idle`).
 */
export interface AgentStopped {
  reason: "shutdown" | "lead_exited" | "crashed" | "idle";
  /** True when the lead stopped it without its consent (a shutdown request that timed out). */
  forced?: boolean;
}

/** Teammates' processes (s15); the teammate's start is its `agent.spawned` (payloads/agent.ts). */
export interface TeamEvents {
  "agent.started": AgentStarted;
  "agent.exited": AgentExited;
  "agent.stopped": AgentStopped;
}

/** The event types of TeamEvents, for validation on read. */
export const TEAM_EVENTS: EventTable<TeamEvents> = {
  "agent.started": true,
  "agent.exited": true,
  "agent.stopped": true,
};
