import { pendingRequests, type ProtocolRequest } from "../protocols/mod.ts";
import type { State } from "../state/state.ts";
import type { TeamQuestion } from "./questions_projection.ts";
import { pendingQuestions } from "./questions_of.ts";

/** What the person at the lead's REPL is asked next for the team. */
export type PersonQuestion =
  | { kind: "permission"; question: TeamQuestion }
  | { kind: "plan"; request: ProtocolRequest };

/**
 * The oldest thing a teammate waits on the person for in `session`: a permission question (the
 * teammate's call waits for it), else, when `plans` (the lead idle at the prompt), a plan
 * waiting for approval (each teammate's newest: a plan submitted again supersedes the one
 * before). Undefined when nothing waits. Pure.
 */
export function nextQuestion(
  state: State,
  session: string,
  options: { plans: boolean },
): PersonQuestion | undefined {
  const [question] = pendingQuestions(state, session);
  if (question !== undefined) return { kind: "permission", question };
  if (!options.plans) return undefined;
  const lead = state.sessions.byId[session]?.mainAgent;
  const plans = pendingRequests(
    state,
    session,
    (request) => request.kind === "plan_approval" && request.to === lead,
  );
  const newest = plans.filter((request) =>
    !plans.some((later) => later.from === request.from && later.seq > request.seq)
  );
  const [request] = newest;
  return request === undefined ? undefined : { kind: "plan", request };
}
