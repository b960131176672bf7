import type { ModelFailureKind } from "../../events/event_types.ts";
import type { ModelError } from "../effects/model_client.ts";

/** How model failures are retried. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Delay before the first retry; doubles each attempt. */
  baseDelayMs: number;
  /** Upper bound of a backoff delay (a server's retry-after may exceed it, up to maxRetryAfterMs). */
  maxDelayMs: number;
  /** A retry-after longer than this is not waited for: the call fails instead. */
  maxRetryAfterMs: number;
}

/** Defaults: 8 attempts, 1 s doubling to at most 32 s, honour retry-after up to 5 minutes. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 1000,
  maxDelayMs: 32_000,
  maxRetryAfterMs: 300_000,
};

const RETRYABLE: ReadonlySet<ModelFailureKind> = new Set([
  "rate_limited",
  "overloaded",
  "server_error",
  "stream_cut",
  "connection",
]);

/**
 * Delay before the next attempt after `attempt` failed with `error`, or null when the call should
 * not be retried. Exponential backoff with ±25% jitter; a server's retry-after is honoured.
 * Pure given `random` (a number in [0, 1)).
 */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  error: ModelError,
  random: number,
): number | null {
  if (!RETRYABLE.has(error.kind) || attempt >= policy.maxAttempts) return null;
  if (error.retryAfterMs !== null) {
    return error.retryAfterMs <= policy.maxRetryAfterMs ? error.retryAfterMs : null;
  }
  const backoff = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return Math.round(backoff * (0.75 + random * 0.5));
}
