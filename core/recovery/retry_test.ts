import assert from "node:assert/strict";
import { ModelError } from "../effects/model_client.ts";
import { DEFAULT_RETRY_POLICY, retryDelay, retryPolicyFromEnv } from "./retry.ts";

const policy = {
  ...DEFAULT_RETRY_POLICY,
  maxAttempts: 4,
  baseDelayMs: 100,
  maxDelayMs: 250,
  minDelayMs: 50,
};

Deno.test("backoff doubles per attempt, is capped, and jitters within ±25%", () => {
  const err = new ModelError("overloaded", { kind: "overloaded", status: 529 });
  assert.equal(retryDelay(policy, 1, err, 0.5), 100);
  assert.equal(retryDelay(policy, 2, err, 0.5), 200);
  assert.equal(retryDelay(policy, 3, err, 0.5), 250);
  assert.equal(retryDelay(policy, 1, err, 0), 75);
  assert.equal(retryDelay(policy, 1, err, 0.999), 125);
});

Deno.test("retry-after from the server is honoured as given", () => {
  const err = new ModelError("slow down", {
    kind: "rate_limited",
    status: 429,
    retryAfterMs: 7000,
  });
  assert.equal(retryDelay(policy, 1, err, 0.5), 7000);
  const tooLong = new ModelError("x", {
    kind: "rate_limited",
    status: 429,
    retryAfterMs: 10 * 60_000,
  });
  assert.equal(retryDelay(policy, 1, tooLong, 0.5), null);
});

Deno.test("client errors and prompt-too-long are not retried; attempts run out", () => {
  assert.equal(
    retryDelay(policy, 1, new ModelError("bad", { kind: "client_error", status: 400 }), 0.5),
    null,
  );
  assert.equal(
    retryDelay(policy, 1, new ModelError("long", { kind: "prompt_too_long", status: 400 }), 0.5),
    null,
  );
  assert.equal(retryDelay(policy, 4, new ModelError("cut", { kind: "stream_cut" }), 0.5), null);
  assert.notEqual(retryDelay(policy, 3, new ModelError("cut", { kind: "stream_cut" }), 0.5), null);
});

Deno.test("a retry-after of 0 still waits the floor, so retries never hammer the API", () => {
  const now = new ModelError("busy", { kind: "overloaded", status: 529, retryAfterMs: 0 });
  assert.equal(retryDelay(policy, 1, now, 0.5), 50);
  assert.equal(retryDelay({ ...policy, baseDelayMs: 1 }, 1, now, 0.5), 1, "tests shrink it");
});

Deno.test("an endpoint that cannot be reached gets a short retry, not the full ladder", () => {
  const refused = new ModelError("refused", { kind: "connection" });
  assert.notEqual(retryDelay({ ...policy, maxAttempts: 10 }, 2, refused, 0.5), null);
  assert.equal(retryDelay({ ...policy, maxAttempts: 10 }, 3, refused, 0.5), null);
});

Deno.test("REIN_MAX_RETRIES, else CLAUDE_CODE_MAX_RETRIES, sets the retries after the first attempt", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.deepEqual(retryPolicyFromEnv(env({ REIN_MAX_RETRIES: "2" })), { maxAttempts: 3 });
  assert.deepEqual(retryPolicyFromEnv(env({ CLAUDE_CODE_MAX_RETRIES: "0" })), { maxAttempts: 1 });
  assert.deepEqual(
    retryPolicyFromEnv(env({ REIN_MAX_RETRIES: "4", CLAUDE_CODE_MAX_RETRIES: "9" })),
    { maxAttempts: 5 },
  );
  assert.deepEqual(retryPolicyFromEnv(env({})), {});
  assert.throws(
    () => retryPolicyFromEnv(env({ CLAUDE_CODE_MAX_RETRIES: "lots" })),
    /Invalid CLAUDE_CODE_MAX_RETRIES "lots": expected a whole number/,
  );
});
