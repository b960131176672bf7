import type { JobSettings } from "../../events/event_types.ts";
import { formatBytes } from "./_format_bytes.ts";

/** How long a background job may run when neither its call nor the user says otherwise. */
export const DEFAULT_JOB_TIMEOUT_MS = 30 * 60_000;

/** The variable that sets the job timeout, in milliseconds. */
export const JOB_TIMEOUT_ENV = "REIN_JOB_TIMEOUT_MS";

/** The most bytes of a job's output its log keeps, unless the user says otherwise (4 MiB). */
export const DEFAULT_JOB_OUTPUT_MAX_BYTES = 4 * 1024 * 1024;

/** The variable that sets the most bytes of a job's output its log keeps. */
export const JOB_OUTPUT_MAX_BYTES_ENV = "REIN_JOB_OUTPUT_MAX_BYTES";

/** The smallest output cap taken: room for a head, a tail and the note of what was cut. */
export const MIN_JOB_OUTPUT_MAX_BYTES = 1024;

/**
 * The background jobs' settings a session records: the default timeout from
 * `REIN_JOB_TIMEOUT_MS` (30 minutes when unset) and the most bytes of a job's output its log
 * keeps from `REIN_JOB_OUTPUT_MAX_BYTES` (4 MiB when unset); `get` reads the environment, then a
 * settings file's `env` block. A value that is not a whole number in range is reported through
 * `onNotice` and the default is used. Pure apart from `onNotice`.
 */
export function jobSettings(
  get: (name: string) => string | undefined,
  onNotice: (message: string) => void = () => {},
): JobSettings {
  return {
    timeoutMs: wholeNumber(
      get,
      onNotice,
      JOB_TIMEOUT_ENV,
      1,
      DEFAULT_JOB_TIMEOUT_MS,
      "a positive whole number of milliseconds",
      `background jobs time out after ${DEFAULT_JOB_TIMEOUT_MS / 60_000} minutes`,
    ),
    outputMaxBytes: wholeNumber(
      get,
      onNotice,
      JOB_OUTPUT_MAX_BYTES_ENV,
      MIN_JOB_OUTPUT_MAX_BYTES,
      DEFAULT_JOB_OUTPUT_MAX_BYTES,
      `a whole number of bytes, at least ${MIN_JOB_OUTPUT_MAX_BYTES}`,
      `a background job's log keeps ${formatBytes(DEFAULT_JOB_OUTPUT_MAX_BYTES)} of its output`,
    ),
  };
}

function wholeNumber(
  get: (name: string) => string | undefined,
  onNotice: (message: string) => void,
  name: string,
  min: number,
  fallback: number,
  expected: string,
  instead: string,
): number {
  const value = get(name)?.trim();
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (Number.isSafeInteger(n) && n >= min) return n;
  onNotice(`Ignoring ${name}="${value}": expected ${expected}; ${instead}`);
  return fallback;
}
