import { isLive, rosterKey, rosterOf } from "../team/mod.ts";
import { sliceOf, type State } from "../state/state.ts";
import {
  questionsProjection,
  type SessionQuestions,
  type TeamQuestion,
} from "./questions_projection.ts";

const NONE: SessionQuestions = { byId: {}, order: [] };

/** `session`'s teammate questions now. Pure. */
export function sessionQuestions(state: State, session: string): SessionQuestions {
  return sliceOf(state, questionsProjection)[session] ?? NONE;
}

/** The question of call `id` in `session`, if one was asked. Pure. */
export function questionOf(state: State, session: string, id: string): TeamQuestion | undefined {
  return sessionQuestions(state, session).byId[id];
}

/**
 * The questions of `session` that wait for the person, oldest first: unanswered and not closed,
 * from a teammate still live in the roster (a stopped or crashed one waits for nothing). Pure.
 */
export function pendingQuestions(state: State, session: string): TeamQuestion[] {
  const questions = sessionQuestions(state, session);
  const roster = rosterOf(state);
  return questions.order.flatMap((id) => {
    const question = questions.byId[id];
    if (question === undefined || question.answer !== undefined || question.closed) return [];
    const entry = roster.byKey[rosterKey(session, question.from)];
    return entry !== undefined && isLive(entry.status) ? [question] : [];
  });
}
