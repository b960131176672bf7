import type { RuntimeEnv } from "./paths.ts";

/**
 * The variable that names a file holding the time rein runs at, for tests only: with it set,
 * every reading of rein's wall clock (session starts, event timestamps, cron) reads the ISO 8601
 * time in that file, so a test moves time forward by writing it, across processes and restarts.
 * Never set it outside tests.
 */
export const CLOCK_FILE_ENV = "REIN_CLOCK_FILE";

/** How often rein checks its cron jobs: every second, or every 100 ms on a test's clock. */
export function cronTickMs(env: RuntimeEnv): number {
  return env.get(CLOCK_FILE_ENV) ? 100 : 1000;
}

/**
 * rein's wall clock: the machine's, or the time in the file {@link CLOCK_FILE_ENV} names (read
 * at every reading; throws, naming the file, when it does not hold a time).
 */
export function wallClock(env: RuntimeEnv): () => Date {
  const file = env.get(CLOCK_FILE_ENV);
  if (!file) return () => new Date();
  return () => {
    const text = Deno.readTextFileSync(file).trim();
    const time = new Date(text);
    if (Number.isNaN(time.getTime())) {
      throw new Error(`${CLOCK_FILE_ENV} names "${file}", which holds no time: "${text}"`);
    }
    return time;
  };
}
