import type { ReinEvent, TurnEndReason } from "../../events/event_types.ts";
import type { AgentView } from "../state/sessions.ts";

/**
 * Another agent of the caller's session as a composite tool drives it (core/loop's `AgentLoop`
 * is one): record its start, prompt it, or continue its unfinished turn, and read its view.
 */
export interface SiblingAgent {
  /** Appends events as this agent's (its `agent.spawned`). */
  record(events: readonly ReinEvent[]): Promise<void>;
  /** Runs a turn on `text`. */
  prompt(text: string, options: RunOptions): Promise<TurnResult>;
  /** Continues its unfinished turn; null when there was nothing to continue. */
  resume(how: "continue", prompt: undefined, options: RunOptions): Promise<TurnResult | null>;
  /** Whether it has a turn to continue. */
  readonly hasUnfinishedWork: boolean;
  /** Its projected view. */
  readonly conversation: AgentView;
}

/** How a run ended. */
export interface TurnResult {
  reason: TurnEndReason;
  /** Model rounds in this run. */
  rounds: number;
  /** Detail for failed and cancelled runs. */
  message?: string;
}

/** Options of one run (a prompt, or the continuation of unfinished work). */
export interface RunOptions {
  signal: AbortSignal;
  /** Bound on model rounds in this run; null for none. */
  maxTurns: number | null;
  /** Bound on this run's dollars: it ends before a request once they are spent. */
  maxBudgetUsd?: number;
  /** Receives streamed assistant text as it arrives (display only; not recorded per token). */
  onText?: (delta: string) => void;
}
