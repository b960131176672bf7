import type { JobSettings } from "../../events/event_types.ts";

/** How long a background job may run when neither its call nor the user says otherwise. */
export const DEFAULT_JOB_TIMEOUT_MS = 30 * 60_000;

/** The variable that sets the job timeout, in milliseconds. */
export const JOB_TIMEOUT_ENV = "REIN_JOB_TIMEOUT_MS";

/**
 * The background jobs' settings a session records: the default timeout from
 * `REIN_JOB_TIMEOUT_MS` (`get` reads the environment, then a settings file's `env` block), 30
 * minutes when it is unset. A value that is not a positive whole number is reported through
 * `onNotice` and the default is used. Pure apart from `onNotice`.
 */
export function jobSettings(
  get: (name: string) => string | undefined,
  onNotice: (message: string) => void = () => {},
): JobSettings {
  const value = get(JOB_TIMEOUT_ENV)?.trim();
  if (value === undefined || value === "") return { timeoutMs: DEFAULT_JOB_TIMEOUT_MS };
  const ms = Number(value);
  if (Number.isSafeInteger(ms) && ms > 0) return { timeoutMs: ms };
  onNotice(
    `Ignoring ${JOB_TIMEOUT_ENV}="${value}": expected a positive whole number of milliseconds; ` +
      `background jobs time out after ${DEFAULT_JOB_TIMEOUT_MS / 60_000} minutes`,
  );
  return { timeoutMs: DEFAULT_JOB_TIMEOUT_MS };
}
