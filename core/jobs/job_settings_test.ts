import assert from "node:assert/strict";
import {
  DEFAULT_JOB_OUTPUT_MAX_BYTES,
  DEFAULT_JOB_TIMEOUT_MS,
  jobSettings,
} from "./job_settings.ts";

const DEFAULTS = {
  timeoutMs: DEFAULT_JOB_TIMEOUT_MS,
  outputMaxBytes: DEFAULT_JOB_OUTPUT_MAX_BYTES,
};

Deno.test("the job timeout is REIN_JOB_TIMEOUT_MS, 30 minutes when unset", () => {
  assert.deepEqual(jobSettings(() => undefined), DEFAULTS);
  assert.deepEqual(jobSettings((name) => name === "REIN_JOB_TIMEOUT_MS" ? "5000" : undefined), {
    ...DEFAULTS,
    timeoutMs: 5000,
  });
});

Deno.test("a job timeout that is not a positive whole number is reported and not used", () => {
  const notices: string[] = [];
  for (const value of ["0", "-5", "soon", "1.5"]) {
    const get = (name: string) => name === "REIN_JOB_TIMEOUT_MS" ? value : undefined;
    assert.deepEqual(jobSettings(get, (n) => notices.push(n)), DEFAULTS);
  }
  assert.equal(notices.length, 4);
  assert.equal(
    notices[2],
    'Ignoring REIN_JOB_TIMEOUT_MS="soon": expected a positive whole number of milliseconds; ' +
      "background jobs time out after 30 minutes",
  );
});

Deno.test("a job's output cap is REIN_JOB_OUTPUT_MAX_BYTES, 4 MiB when unset, at least 1024", () => {
  assert.equal(DEFAULT_JOB_OUTPUT_MAX_BYTES, 4 * 1024 * 1024);
  const get = (value: string) => (name: string) =>
    name === "REIN_JOB_OUTPUT_MAX_BYTES" ? value : undefined;
  assert.deepEqual(jobSettings(get(" 65536 ")), { ...DEFAULTS, outputMaxBytes: 65536 });
  const notices: string[] = [];
  for (const value of ["1023", "0", "4MB", "1e3"]) {
    assert.deepEqual(jobSettings(get(value), (n) => notices.push(n)), DEFAULTS);
  }
  assert.equal(notices.length, 4);
  assert.equal(
    notices[0],
    'Ignoring REIN_JOB_OUTPUT_MAX_BYTES="1023": expected a whole number of bytes, at least ' +
      "1024; a background job's log keeps 4 MiB of its output",
  );
});
