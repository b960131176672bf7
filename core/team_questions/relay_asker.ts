import type { NewEvent } from "../../events/event_types.ts";
import type { EventStore } from "../../events/store.ts";
import type {
  PermissionAnswer,
  PermissionAsker,
  PermissionQuestion,
} from "../permissions/permissions_mechanism.ts";
import type { State } from "../state/state.ts";
import { questionOf } from "./questions_of.ts";

/** What a teammate's process relays its questions through: the log, and the state it folds. */
export interface RelayHost {
  store: EventStore;
  state: () => State;
}

/** How often a waiting teammate looks for the lead's answer, in milliseconds. */
const POLL_MS = 100;

/**
 * The asker of a teammate's process, whose session's lead runs where a person can be asked (the
 * REPL; a headless lead's session is recorded as one where nobody can be, so its teammates' gates
 * deny such calls without asking): the question is recorded (`question.asked`, once per call: a
 * teammate started again after a crash waits for the question it asked before), and the answer
 * is the `question.answered` the lead's process appends once the person answers, read as the log
 * is followed. The permissions gate records the decision from it (and saves an "always" rule),
 * so replay serves it from the log. `signal` aborting (the teammate's turn cancelled) refuses the
 * call as cancelled.
 */
export function relayAsker(host: RelayHost, pollMs = POLL_MS): PermissionAsker {
  return async (question, signal) => {
    const { session, callId } = question;
    if (questionOf(host.state(), session, callId) === undefined) {
      await host.store.appendDecided(() =>
        questionOf(host.state(), session, callId) === undefined ? [askedEvent(question)] : []
      );
    }
    for (;;) {
      const answer = questionOf(host.state(), session, callId)?.answer;
      if (answer !== undefined) {
        return answer.reason === undefined
          ? { answer: answer.answer }
          : { answer: answer.answer, reason: answer.reason };
      }
      if (signal.aborted) return cancelled();
      try {
        await host.store.waitForAppend(host.store.lastSeq, signal, pollMs);
      } catch (error) {
        if (signal.aborted) return cancelled();
        throw error;
      }
    }
  };
}

function cancelled(): PermissionAnswer {
  return { answer: "no", reason: "the turn was cancelled", cancelled: true };
}

/** The `question.asked` of `question`, the teammate's own event. Pure. */
export function askedEvent(question: PermissionQuestion): NewEvent {
  const { protectedPath } = question;
  return {
    type: "question.asked",
    session: question.session,
    agent: question.agent,
    data: {
      id: question.callId,
      kind: "permission",
      tool: question.tool,
      input: question.input,
      asked: question.asked,
      suggestion: question.suggestion,
      ...(protectedPath === undefined ? {} : { protectedPath }),
    },
  };
}
