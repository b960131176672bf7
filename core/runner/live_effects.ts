import { dirname } from "../../events/posix_path.ts";
import { createAnthropicModel } from "../effects/anthropic_model.ts";
import { abortableSleep } from "../effects/sleep.ts";
import { MODELS } from "../models/catalogue.ts";
import type { HarnessEffects } from "../harness.ts";
import {
  DEFAULT_RETRY_POLICY,
  retryDelay,
  type RetryPolicy,
  whyNoRetry,
} from "../recovery/retry.ts";

/** Where the model is and how failures are retried. */
export interface LiveEffectsOptions {
  apiKey?: string | undefined;
  authToken?: string | undefined;
  baseURL?: string | undefined;
  /** Overrides of the default retry policy (tests shorten the delays). */
  retry?: Partial<RetryPolicy>;
}

/**
 * The effects of a live run: the Anthropic Messages API (the SDK loads in the background from
 * the moment this is called), the wall and monotonic clocks, real sleeps, and backoff with
 * jitter from `Math.random`.
 */
export function liveEffects(options: LiveEffectsOptions): HarnessEffects {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  return {
    model: createAnthropicModel({ ...options, knownModels: MODELS.map((m) => m.id) }),
    clock: () => new Date(),
    monotonicMs: () => performance.now(),
    sleep: abortableSleep,
    retryDelay: (attempt, error) => retryDelay(policy, attempt, error, Math.random()),
    whyNoRetry: (attempt, error) => whyNoRetry(policy, attempt, error),
    writeFile: async (path, text) => {
      await Deno.mkdir(dirname(path), { recursive: true });
      await Deno.writeTextFile(path, text);
    },
  };
}
