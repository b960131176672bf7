/**
 * Error recovery (s11): retries with backoff for failed model calls, the fallback model for an
 * overloaded one, and continuations for an answer cut off at the output limit.
 *
 * @module
 */
export { fallBack, FALLBACK_AFTER, restore } from "./fallback.ts";
export { afterOutputLimit, MAX_CONTINUATIONS } from "./output_limit.ts";
export { recoveryMechanism } from "./recovery.ts";
export {
  DEFAULT_RETRY_POLICY,
  retryDelay,
  type RetryPolicy,
  retryPolicyFromEnv,
  whyNoRetry,
} from "./retry.ts";
