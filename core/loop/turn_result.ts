import type { TurnEndReason } from "../../events/event_types.ts";

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
