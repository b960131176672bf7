/**
 * A teammate's permission questions relayed to the person at the lead's REPL, and what the
 * person does to the team from there (answers, their own mail, plan reviews, stops).
 *
 * @module
 */
export { nextQuestion, type PersonQuestion } from "./next_question.ts";
export {
  answerQuestion,
  type Decided,
  type LeadDesk,
  liveTeammateNamed,
  PERSON_MARK,
  personMail,
  personReview,
  stopTeammate,
} from "./person_deciders.ts";
export { pendingQuestions, questionOf, sessionQuestions } from "./questions_of.ts";
export {
  questionsProjection,
  type QuestionsSlice,
  type SessionQuestions,
  type TeamQuestion,
} from "./questions_projection.ts";
export { renderQuestionEvent } from "./questions_render.ts";
export { askedEvent, relayAsker, type RelayHost } from "./relay_asker.ts";
export { byPerson, teamQuestionsMechanism } from "./team_questions_mechanism.ts";
