import { LogCorruptionError } from "../../events/errors.ts";
import type { Envelope } from "../../events/event_types.ts";

/**
 * Run `fold` on `event`: the projections never throw on a well-formed log, so a throw means a
 * damaged payload, reported as corruption of its line (line N holds seq N).
 */
export function folding(logPath: string, event: Envelope, fold: () => unknown): void {
  try {
    fold();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new LogCorruptionError(
      logPath,
      event.seq,
      `malformed ${event.type} payload (${detail})`,
      { cause: error },
    );
  }
}
