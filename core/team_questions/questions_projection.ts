import type { Envelope } from "../../events/event_types.ts";
import type { QuestionAnswered } from "../../events/payloads/question.ts";
import type { Projection } from "../state/projection.ts";

/** A teammate's question to the person, and the answer once there is one. */
export interface TeamQuestion {
  /** The asking call's id. */
  id: string;
  /** seq of its `question.asked`. */
  seq: number;
  /** The teammate that asked. */
  from: string;
  kind: "permission";
  tool: string;
  input: Record<string, unknown>;
  asked: string;
  suggestion: string;
  protectedPath?: string;
  answer?: Pick<QuestionAnswered, "answer" | "reason">;
  /** The teammate's gate decided the call without an answer (its turn was cancelled). */
  closed?: true;
}

/** One session's questions from its teammates, in the order they were asked. */
export interface SessionQuestions {
  byId: Record<string, TeamQuestion>;
  order: string[];
}

/** What the questions fold, by session id. */
export type QuestionsSlice = Record<string, SessionQuestions>;

/**
 * Every session's teammate questions: a `question.asked` adds one (asked again for the same call,
 * after a crash, it stays the one question), a `question.answered` answers it once (a later
 * answer to an answered question changes nothing), and the teammate's `permission.decided` for
 * the call closes one left unanswered (its turn was cancelled while it waited). Pure.
 */
export const questionsProjection: Projection<QuestionsSlice> = {
  key: "team_questions",
  canHandle: ["question.asked", "question.answered", "permission.decided"],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    if (event.type === "question.asked") {
      const session = slice[event.session] ??= { byId: {}, order: [] };
      const { id } = event.data;
      if (session.byId[id] !== undefined) return slice;
      session.byId[id] = { ...event.data, seq: event.seq, from: event.agent };
      session.order.push(id);
    } else if (event.type === "question.answered") {
      const question = slice[event.session]?.byId[event.data.id];
      if (question === undefined || question.answer !== undefined) return slice;
      const { answer, reason } = event.data;
      question.answer = reason === undefined ? { answer } : { answer, reason };
    } else if (event.type === "permission.decided") {
      const question = slice[event.session]?.byId[event.data.callId];
      if (
        question !== undefined && question.from === event.agent && question.answer === undefined
      ) {
        question.closed = true;
      }
    }
    return slice;
  },
};
