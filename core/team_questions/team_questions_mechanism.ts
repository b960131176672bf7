import type { Envelope } from "../../events/event_types.ts";
import { TEAMS_FEATURE } from "../mail/mod.ts";
import type { Mechanism } from "../mechanism.ts";
import { questionsProjection } from "./questions_projection.ts";
import { renderQuestionEvent } from "./questions_render.ts";

/**
 * A teammate's permission questions relayed to the person at the lead's REPL, and what the
 * person does to the team there (s15): the questions' fold, their render lines, and what replay
 * feeds because it reached the log from outside every loop: the teammate's `question.asked` and
 * the person's `question.answered`, and the person's own mail (`@alice text`) and plan reviews,
 * which are `mail.sent` and `protocol.answered` marked `person: true`. The `teams` feature.
 */
export function teamQuestionsMechanism(): Mechanism {
  return {
    name: "team_questions",
    feature: TEAMS_FEATURE,
    projection: questionsProjection,
    fedTypes: ["question.asked", "question.answered"],
    fedEvent: byPerson,
    render: renderQuestionEvent,
  };
}

/** Whether `event` is the person's mail or plan review, appended by the lead's REPL. Pure. */
export function byPerson(event: Envelope): boolean {
  return (event.type === "mail.sent" || event.type === "protocol.answered") &&
    event.data.person === true;
}
