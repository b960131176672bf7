import type { EventTable } from "./_payload.ts";

/**
 * A teammate's call needs a person's permission and the session's lead runs where a person can
 * be asked (the REPL): the teammate's process records the question, with everything the person is
 * shown, and waits for its `question.answered`. Appended from outside the teammate's loop (the
 * envelope's agent is the teammate), so replay feeds it where it was.
 */
export interface QuestionAsked {
  /** The asking call's id: one question per call. */
  id: string;
  kind: "permission";
  /** The call's tool and input, as the person is shown them. */
  tool: string;
  input: Record<string, unknown>;
  /** Why it asks (`no permission rule allows it`, an ask rule). */
  asked: string;
  /** The rule "don't ask again" would save. */
  suggestion: string;
  /** The file under `.claude/` or `.git/` the call writes: "always" allows this call only. */
  protectedPath?: string;
}

/**
 * The person answered a teammate's question in the lead's REPL: appended by the lead's process
 * (the envelope's agent is the lead) under the log's lock, only while the question is unanswered,
 * so replay feeds it where it was. The teammate's permission gate records its
 * `permission.decided` from it.
 */
export interface QuestionAnswered {
  /** The question's id (the teammate's call). */
  id: string;
  /** The teammate that asked. */
  to: string;
  answer: "yes" | "always" | "no";
  /** What the person said with a refusal, for the teammate's model. */
  reason?: string;
}

/** Questions a teammate's process relays to the person at the lead's REPL (s15). */
export interface QuestionEvents {
  "question.asked": QuestionAsked;
  "question.answered": QuestionAnswered;
}

/** The event types of QuestionEvents, for validation on read. */
export const QUESTION_EVENTS: EventTable<QuestionEvents> = {
  "question.asked": true,
  "question.answered": true,
};
