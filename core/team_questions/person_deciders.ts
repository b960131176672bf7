/**
 * What the person does to the team from the lead's REPL, decided under the log's lock over the
 * caught-up state (each appended from outside every loop, so replay feeds it where it was): an
 * answer to a teammate's question, their own words as the lead's mail, a plan's review, a stop.
 */
import type { NewEvent } from "../../events/event_types.ts";
import { reviewPlan } from "../protocols/mod.ts";
import type { State } from "../state/state.ts";
import { isLive, rosterOf } from "../team/mod.ts";
import type { PermissionAnswer } from "../permissions/permissions_mechanism.ts";
import { questionOf } from "./questions_of.ts";

/** Whose REPL: the session and its lead. */
export interface LeadDesk {
  session: string;
  lead: string;
}

/** The events of a decision, or why there are none (worded for the person). */
export type Decided = { events: NewEvent[] } | { error: string };

/**
 * The person's answer to the teammate's question `id`: its `question.answered` (by the lead),
 * none when it is answered already (another answer won). Pure.
 */
export function answerQuestion(
  state: State,
  desk: LeadDesk,
  id: string,
  answer: Pick<PermissionAnswer, "answer" | "reason">,
): NewEvent[] {
  const question = questionOf(state, desk.session, id);
  if (question === undefined || question.answer !== undefined) return [];
  const { reason } = answer;
  return [{
    type: "question.answered",
    session: desk.session,
    agent: desk.lead,
    data: {
      id,
      to: question.from,
      answer: answer.answer,
      ...(reason === undefined || answer.answer !== "no" ? {} : { reason }),
    },
  }];
}

/** The live teammate `name` names in `session` (exactly, else ignoring case). Pure. */
export function liveTeammateNamed(
  state: State,
  session: string,
  name: string,
): string | undefined {
  const roster = rosterOf(state);
  const live = roster.order.flatMap((key) => {
    const entry = roster.byKey[key];
    return entry !== undefined && entry.session === session && isLive(entry.status)
      ? [entry.name]
      : [];
  });
  if (live.includes(name)) return name;
  const loose = live.filter((known) => known.toLowerCase() === name.toLowerCase());
  return loose.length === 1 ? loose[0] : undefined;
}

/** The names of `session`'s live teammates, for an error. */
function liveList(state: State, session: string): string {
  const roster = rosterOf(state);
  const names = roster.order.flatMap((key) => {
    const entry = roster.byKey[key];
    return entry !== undefined && entry.session === session && isLive(entry.status)
      ? [entry.name]
      : [];
  });
  return names.length === 0 ? "none" : names.join(", ");
}

/** How the person's words are marked in the teammate's mail. */
export const PERSON_MARK = "(From the user, typed at the lead's terminal)";

/**
 * `@alice text`: the person's own words to live teammate `to`, sent as the lead's mail (id
 * `id`), marked as the person's (`person: true`, and the text's first words say so to the
 * teammate's model). Pure.
 */
export function personMail(
  state: State,
  desk: LeadDesk,
  to: string,
  text: string,
  id: string,
): Decided {
  const name = liveTeammateNamed(state, desk.session, to);
  if (name === undefined) {
    return {
      error: `No teammate named "${to}": the teammates are ${liveList(state, desk.session)}`,
    };
  }
  return {
    events: [{
      type: "mail.sent",
      session: desk.session,
      agent: desk.lead,
      data: {
        id,
        from: desk.lead,
        to: name,
        recipients: [name],
        content: `${PERSON_MARK} ${text}`,
        kind: "message",
        person: true,
      },
    }],
  };
}

/**
 * The person's review of the plan request `requestId` in the lead's name, through the protocol's
 * `review_plan` decider: its `protocol.answered`, marked `person: true`. Pure.
 */
export function personReview(
  state: State,
  desk: LeadDesk,
  requestId: string,
  review: { approve: boolean; feedback?: string },
): Decided {
  const result = reviewPlan(
    state,
    { session: desk.session, agent: desk.lead, callId: requestId },
    { request_id: requestId, ...review },
  );
  if (result.isError) return { error: result.content };
  return {
    events: (result.events ?? []).map((event) =>
      ({
        ...event.type === "protocol.answered"
          ? { ...event, data: { ...event.data, person: true as const } }
          : event,
        session: desk.session,
        agent: desk.lead,
      }) as NewEvent
    ),
  };
}

/**
 * `/team stop NAME`: the person stops live teammate `name` now (`agent.stopped`, forced: the
 * lead's process ends its process, as it does a shutdown that timed out). Pure.
 */
export function stopTeammate(state: State, desk: LeadDesk, name: string): Decided {
  const found = liveTeammateNamed(state, desk.session, name);
  if (found === undefined) {
    return {
      error: `No live teammate named "${name}": the teammates are ${liveList(state, desk.session)}`,
    };
  }
  return {
    events: [{
      type: "agent.stopped",
      session: desk.session,
      agent: found,
      data: { reason: "shutdown", forced: true },
    }],
  };
}
