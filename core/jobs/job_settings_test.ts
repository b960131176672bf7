import assert from "node:assert/strict";
import { DEFAULT_JOB_TIMEOUT_MS, jobSettings } from "./job_settings.ts";

Deno.test("the job timeout is REIN_JOB_TIMEOUT_MS, 30 minutes when unset", () => {
  assert.deepEqual(jobSettings(() => undefined), { timeoutMs: DEFAULT_JOB_TIMEOUT_MS });
  assert.deepEqual(jobSettings((name) => name === "REIN_JOB_TIMEOUT_MS" ? "5000" : undefined), {
    timeoutMs: 5000,
  });
});

Deno.test("a job timeout that is not a positive whole number is reported and not used", () => {
  const notices: string[] = [];
  for (const value of ["0", "-5", "soon", "1.5"]) {
    assert.deepEqual(jobSettings(() => value, (n) => notices.push(n)), {
      timeoutMs: DEFAULT_JOB_TIMEOUT_MS,
    });
  }
  assert.equal(notices.length, 4);
  assert.equal(
    notices[2],
    'Ignoring REIN_JOB_TIMEOUT_MS="soon": expected a positive whole number of milliseconds; ' +
      "background jobs time out after 30 minutes",
  );
});
