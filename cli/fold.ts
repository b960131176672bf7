import { LogCorruptionError } from "../events/errors.ts";
import type { Envelope } from "../events/event_types.ts";
import { evolve, type State } from "../core/state/state.ts";

/**
 * Fold one event of the log at `path` into `state`. The projections never throw on a well-formed
 * log, so a throw means an event whose payload is damaged: it is reported as corruption with the
 * file and line (a log's line N holds seq N, as seq is gapless from 1).
 */
export function foldLogged(state: State, event: Envelope, path: string): State {
  try {
    return evolve(state, event);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new LogCorruptionError(path, event.seq, `malformed ${event.type} payload (${detail})`, {
      cause: error,
    });
  }
}
