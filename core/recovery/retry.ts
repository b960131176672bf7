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
  /** The shortest wait between attempts, whatever a server's retry-after says (`0` included). */
  minDelayMs: number;
  /** Attempts in all when the endpoint cannot be reached (a mistyped URL fails fast). */
  maxConnectionAttempts: number;
}

/**
 * Defaults: 10 attempts (3 when the endpoint cannot be reached), 1 s doubling to at most 32 s,
 * at least 200 ms apart, retry-after honoured up to 5 minutes.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 10,
  baseDelayMs: 1000,
  maxDelayMs: 32_000,
  maxRetryAfterMs: 300_000,
  minDelayMs: 200,
  maxConnectionAttempts: 3,
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
 * not be retried. Exponential backoff with ±25% jitter; a server's retry-after is honoured up to
 * the cap; never less than the floor apart (the floor is the base delay when that is smaller,
 * as tests make it).
 * Pure given `random` (a number in [0, 1)).
 */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  error: ModelError,
  random: number,
): number | null {
  const limit = error.kind === "connection"
    ? Math.min(policy.maxAttempts, policy.maxConnectionAttempts)
    : policy.maxAttempts;
  if (!RETRYABLE.has(error.kind) || attempt >= limit) return null;
  const floor = Math.min(policy.minDelayMs, policy.baseDelayMs);
  if (error.retryAfterMs !== null) {
    if (error.retryAfterMs > policy.maxRetryAfterMs) return null;
    return Math.max(error.retryAfterMs, floor);
  }
  const backoff = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return Math.max(Math.round(backoff * (0.75 + random * 0.5)), floor);
}

/**
 * Why `retryDelay` gives up on a retryable error before the attempts run out: a server's
 * retry-after beyond the cap. Undefined otherwise. Pure.
 */
export function whyNoRetry(
  policy: RetryPolicy,
  attempt: number,
  error: ModelError,
): string | undefined {
  if (!RETRYABLE.has(error.kind) || attempt >= policy.maxAttempts) return undefined;
  if (error.retryAfterMs === null || error.retryAfterMs <= policy.maxRetryAfterMs) {
    return undefined;
  }
  const seconds = (ms: number) => `${Math.round(ms / 1000)}s`;
  return `the API asked to wait ${seconds(error.retryAfterMs)} before retrying, longer than ` +
    `rein waits (${seconds(policy.maxRetryAfterMs)}); try again later`;
}

/**
 * The retry settings a user gives in the environment: `REIN_MAX_RETRIES`, else Claude Code's
 * `CLAUDE_CODE_MAX_RETRIES` (retries after the first attempt), and `REIN_RETRY_BASE_MS` (tests).
 * Pure. Throws, naming the variable and its value, for one that is not a whole number.
 */
export function retryPolicyFromEnv(
  get: (name: string) => string | undefined,
): Partial<RetryPolicy> {
  const policy: Partial<RetryPolicy> = {};
  for (const name of ["REIN_MAX_RETRIES", "CLAUDE_CODE_MAX_RETRIES"]) {
    const value = get(name);
    if (value === undefined || value === "") continue;
    policy.maxAttempts = wholeNumber(name, value) + 1;
    break;
  }
  const base = get("REIN_RETRY_BASE_MS");
  if (base) policy.baseDelayMs = wholeNumber("REIN_RETRY_BASE_MS", base);
  return policy;
}

function wholeNumber(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(`Invalid ${name} "${value}": expected a whole number (0 or more)`);
  }
  return n;
}
