import { LogCorruptionError } from "../events/errors.ts";
import type { Envelope } from "../events/event_types.ts";
import type { Projection } from "../core/state/projection.ts";
import { evolve, type State } from "../core/state/state.ts";

/** Fold one event of the log at `path` into `state`, reporting a damaged payload (see below). */
export function foldLogged(
  state: State,
  event: Envelope,
  path: string,
  projections: readonly Projection[] = [],
): State {
  try {
    return evolve(state, event, projections);
  } catch (error) {
    throw foldError(path, error, event);
  }
}

/**
 * The projections never throw on a well-formed log, so a throw while folding means an event
 * whose payload is damaged: it is reported as corruption with the file and line (a log's line N
 * holds seq N, as seq is gapless from 1).
 */
export function foldError(
  path: string,
  error: unknown,
  event: { seq: number; type: string },
): LogCorruptionError {
  const detail = error instanceof Error ? error.message : String(error);
  return new LogCorruptionError(path, event.seq, `malformed ${event.type} payload (${detail})`, {
    cause: error,
  });
}
