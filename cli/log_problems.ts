import { type CheckedLine, checkLog, type LogProblem } from "../events/check_log.ts";
import { LogCorruptionError } from "../events/errors.ts";
import { reinMechanisms } from "../core/harness.ts";
import type { Projection } from "../core/state/projection.ts";
import { initialState } from "../core/state/state.ts";
import { foldLogged } from "./fold.ts";

/** The projections and extra event types of rein's own mechanisms, as a live session has them. */
function reinFormat(): { projections: Projection[]; eventTypes: string[] } {
  const mechanisms = reinMechanisms({ workspace: "/" });
  return {
    projections: mechanisms.flatMap((m) => m.projection ? [m.projection] : []),
    eventTypes: mechanisms.flatMap((m) => m.eventTypes ?? []),
  };
}

/**
 * Every line of the log at `path` in order, with its problem if it has one: what `checkLog`
 * finds line by line, and an event whose payload the projections reject (folded as a live
 * session folds it, rein's mechanisms' projections included), as a `payload` problem. Reads the
 * file twice: first for each session's last event, so that the second pass lets a session's
 * view go once it is complete and holds only the sessions still open. Never writes the file.
 * Throws only on I/O errors.
 */
export async function* checkedLines(path: string): AsyncGenerator<CheckedLine, void, undefined> {
  const { projections, eventTypes } = reinFormat();
  const lastSeqs = new Map<string, number>();
  for await (const { event, problem } of checkLog(path, { eventTypes })) {
    if (event !== undefined && problem === undefined) lastSeqs.set(event.session, event.seq);
  }
  const state = initialState(projections);
  for await (const checked of checkLog(path, { eventTypes })) {
    const { event, problem, raw } = checked;
    if (event === undefined || problem !== undefined) {
      yield checked;
      continue;
    }
    try {
      foldLogged(state, event, path, projections);
      yield checked;
    } catch (error) {
      if (!(error instanceof LogCorruptionError)) throw error;
      const payload: LogProblem = {
        line: raw.number,
        offset: raw.offset,
        kind: "payload",
        seq: event.seq,
        type: event.type,
        reason: error.reason,
      };
      yield { raw, event, problem: payload };
    }
    if (lastSeqs.get(event.session) === event.seq) delete state.sessions.byId[event.session];
  }
}

/** How a problem reads in a report: `line 3 (seq 3, tool.completed): what is wrong`. Pure. */
export function describeProblem(problem: LogProblem): string {
  const what = problem.seq === null ? "" : ` (seq ${problem.seq}, ${problem.type})`;
  return `line ${problem.line}${what}: ${problem.reason}`;
}
