import type { NewEvent, ReinEvent } from "../../events/event_types.ts";
import { TEAM_LEAD } from "../mail/mail_recipients.ts";
import type { State } from "../state/state.ts";
import type { ToolResult } from "../tools/tool.ts";
import type { ProtocolRequest } from "./protocol_projection.ts";
import {
  isLead,
  isTeammate,
  pendingRequests,
  planGated,
  sessionProtocols,
} from "./protocols_of.ts";

/** Who decides, and the call that does. */
export interface Caller {
  session: string;
  agent: string;
  callId: string;
}

/** Input of request_shutdown. */
export interface RequestShutdownInput {
  /** The teammate's name. */
  to: string;
  reason?: string;
}

/** Input of respond_shutdown. */
export interface RespondShutdownInput {
  approve: boolean;
  reason?: string;
  /** The request answered; by default the pending one addressed to the caller. */
  request_id?: string;
}

/** Input of review_plan. */
export interface ReviewPlanInput {
  /** The teammate whose pending plan is answered (or `request_id`). */
  teammate?: string;
  request_id?: string;
  approve: boolean;
  feedback?: string;
}

/** An error result the model reads. */
function refused(content: string): ToolResult {
  return { content, isError: true };
}

/** A trimmed optional text, undefined when empty. */
function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/** The teammate `name` names (exactly, else ignoring case), or undefined. Pure. */
function teammateNamed(state: State, session: string, name: string): string | undefined {
  const teammates = Object.keys(sessionProtocols(state, session).teammates);
  const wanted = name.trim();
  if (teammates.includes(wanted)) return wanted;
  const loose = teammates.filter((known) => known.toLowerCase() === wanted.toLowerCase());
  return loose.length === 1 ? loose[0] : undefined;
}

/** The names of the session's teammates still running, for an error message. */
function liveNames(state: State, session: string): string {
  const protocols = sessionProtocols(state, session);
  const names = Object.keys(protocols.teammates).filter((name) => !protocols.stopped[name]);
  return names.length === 0 ? "none" : names.join(", ");
}

/**
 * The lead asks teammate `input.to` to shut down: a pending `protocol.requested` (kind
 * `shutdown`, its id the call's) and a `mail.sent` carrying Claude Code's `shutdown_request`
 * frame, which reaches the teammate as mail and wakes it if idle. Asking again while a request is
 * pending records nothing and names it. Pure over the state (decided under the log's lock).
 */
export function requestShutdown(
  state: State,
  caller: Caller,
  input: RequestShutdownInput,
): ToolResult {
  const { session, agent, callId } = caller;
  if (!isLead(state, session, agent)) {
    return refused("Only the lead can ask a teammate to shut down");
  }
  const to = teammateNamed(state, session, input.to);
  if (to === undefined) {
    return refused(
      `No teammate named "${input.to.trim()}": the teammates are ${liveNames(state, session)}`,
    );
  }
  if (sessionProtocols(state, session).stopped[to]) {
    return refused(`Teammate "${to}" has already stopped`);
  }
  const pending = pendingRequests(state, session, (r) => r.kind === "shutdown" && r.to === to);
  if (pending.length > 0) {
    return { content: `${to} was already asked to shut down (request ${pending[0]!.id})` };
  }
  const reason = text(input.reason);
  const frame = {
    type: "shutdown_request",
    request_id: callId,
    from: TEAM_LEAD,
    ...(reason === undefined ? {} : { reason }),
  };
  return {
    content: `Asked ${to} to shut down (request ${callId}); it answers with respond_shutdown`,
    events: [
      {
        type: "protocol.requested",
        data: {
          id: callId,
          kind: "shutdown",
          from: agent,
          to,
          ...(reason === undefined ? {} : { reason }),
        },
      },
      {
        type: "mail.sent",
        data: {
          id: callId,
          from: agent,
          to,
          recipients: [to],
          content: `${JSON.stringify(frame)}\nAnswer with respond_shutdown ` +
            `(approve: true to stop now, or false with a reason to keep working).`,
          summary: "shutdown request",
          kind: "message",
        },
      },
    ],
  };
}

/**
 * The pending request of `kind` that `keep` keeps (`id`, else the oldest shutdown, or the newest
 * plan), or why there is none.
 */
function pendingFor(
  state: State,
  session: string,
  kind: ProtocolRequest["kind"],
  keep: (request: ProtocolRequest) => boolean,
  id: string | undefined,
): ProtocolRequest | string {
  const named = text(id);
  if (named !== undefined) {
    const request = sessionProtocols(state, session).byId[named];
    if (request === undefined || request.kind !== kind || !keep(request)) {
      return `No ${kind.replace("_", " ")} request "${named}" is addressed to you`;
    }
    if (request.status !== "pending") {
      return `Request "${named}" is no longer pending: it was ${request.status}`;
    }
    return request;
  }
  // A plan submitted again after its wait was cancelled supersedes the one before: the newest.
  const pending = pendingRequests(state, session, (r) => r.kind === kind && keep(r));
  const request = kind === "plan_approval" ? pending.at(-1) : pending[0];
  return request ?? `No ${kind.replace("_", " ")} request is pending`;
}

/**
 * A teammate answers the shutdown request addressed to it (`request_id`, or its pending one):
 * `protocol.answered`, and mail to the lead with Claude Code's `shutdown_approved` or
 * `shutdown_rejected` frame (an arrival for the lead: why it refused). Approved, the teammate
 * finishes this call and its turn ends (the protocols' `stopAfterCalls`); the lead's supervisor
 * records its `agent.stopped` and ends its process. A request already answered or expired is
 * refused: of two answers only the first wins. Pure over the state (decided under the log's
 * lock).
 */
export function respondShutdown(
  state: State,
  caller: Caller,
  input: RespondShutdownInput,
): ToolResult {
  const { session, agent, callId } = caller;
  const request = pendingFor(state, session, "shutdown", (r) => r.to === agent, input.request_id);
  if (typeof request === "string") return refused(request);
  const reason = text(input.reason);
  if (!input.approve && reason === undefined) {
    return refused("A reason is required to refuse a shutdown: say why you keep working");
  }
  const frame = {
    type: input.approve ? "shutdown_approved" : "shutdown_rejected",
    request_id: request.id,
    from: agent,
    ...(reason === undefined ? {} : { reason }),
  };
  const events: ReinEvent[] = [
    {
      type: "protocol.answered",
      data: {
        id: request.id,
        approve: input.approve,
        by: agent,
        ...(reason === undefined ? {} : { reason }),
      },
    },
    {
      type: "mail.sent",
      data: {
        id: callId,
        from: agent,
        to: TEAM_LEAD,
        recipients: [request.from],
        content: JSON.stringify(frame),
        summary: input.approve ? "shutdown approved" : "shutdown rejected",
        kind: "message",
      },
    },
  ];
  return {
    content: input.approve
      ? "Shutdown approved: you stop after this call"
      : "Shutdown refused: the lead is told why; go on with your work",
    events,
  };
}

/**
 * The lead answers a teammate's plan (`request_id`, or the pending plan of `teammate`):
 * `protocol.answered`, which the teammate's `submit_plan` is waiting for (its result is the
 * answer and the feedback); approving opens the teammate's gate. Pure over the state.
 */
export function reviewPlan(state: State, caller: Caller, input: ReviewPlanInput): ToolResult {
  const { session, agent } = caller;
  if (!isLead(state, session, agent)) return refused("Only the team lead can approve plans");
  const teammate = input.teammate === undefined
    ? undefined
    : teammateNamed(state, session, input.teammate);
  if (input.teammate !== undefined && teammate === undefined) {
    return refused(
      `No teammate named "${input.teammate.trim()}": the teammates are ${
        liveNames(state, session)
      }`,
    );
  }
  if (teammate === undefined && text(input.request_id) === undefined) {
    return refused('Name the plan to review: "teammate" or "request_id"');
  }
  const request = pendingFor(
    state,
    session,
    "plan_approval",
    (r) => teammate === undefined || r.from === teammate,
    input.request_id,
  );
  if (typeof request === "string") return refused(request);
  const feedback = text(input.feedback);
  return {
    content: `${
      input.approve ? "Approved" : "Rejected"
    } ${request.from}'s plan (request ${request.id})`,
    events: [{
      type: "protocol.answered",
      data: {
        id: request.id,
        approve: input.approve,
        by: agent,
        ...(feedback === undefined ? {} : { reason: feedback }),
      },
    }],
  };
}

/**
 * The events that record a teammate's plan asking for approval (call `callId`): the pending
 * request to the lead and mail carrying Claude Code's `plan_approval_request` frame (which wakes
 * the lead). None when the request is already recorded (the call's gate ran before a crash) or
 * the agent is not waiting for approval. Pure.
 */
export function submitPlanEvents(state: State, caller: Caller, plan: string): ReinEvent[] {
  const { session, agent, callId } = caller;
  if (!planGated(state, session, agent)) return [];
  if (sessionProtocols(state, session).byId[callId] !== undefined) return [];
  const lead = state.sessions.byId[session]?.mainAgent;
  if (lead === undefined) return [];
  const frame = { type: "plan_approval_request", request_id: callId, from: agent, plan };
  return [
    {
      type: "protocol.requested",
      data: { id: callId, kind: "plan_approval", from: agent, to: lead, plan },
    },
    {
      type: "mail.sent",
      data: {
        id: callId,
        from: agent,
        to: TEAM_LEAD,
        recipients: [lead],
        content: `${JSON.stringify(frame)}\nAnswer with review_plan ` +
          `(request_id "${callId}", approve, and feedback if you reject it).`,
        summary: "plan approval request",
        kind: "message",
      },
    },
  ];
}

/**
 * What submit_plan's call `callId` returns once its gate has waited: the lead's answer
 * (Claude Code's "[Plan Approved]" / "[Plan Rejected] feedback"). Pure.
 */
export function planAnswer(state: State, caller: Caller): ToolResult {
  const { session, agent, callId } = caller;
  const request = sessionProtocols(state, session).byId[callId];
  if (request === undefined) {
    return isTeammate(state, session, agent) && !planGated(state, session, agent)
      ? { content: "You are not in plan mode (or your plan is approved): go on with the work" }
      : refused("No plan is waiting for approval: only a teammate in plan mode submits a plan");
  }
  if (request.status === "approved") {
    return {
      content: `[Plan Approved] ${request.answer ?? "You can now proceed with implementation"}`,
    };
  }
  if (request.status === "rejected") {
    return {
      content: `[Plan Rejected] ${request.answer ?? "Please revise your plan"}\n` +
        "Revise the plan and submit it again with submit_plan.",
    };
  }
  return refused(`The plan was not answered: it is ${request.status}`);
}

/**
 * The events that expire the shutdown request `id` after `timeoutMs` (at `at`, the asker's clock
 * reading): `protocol.expired` (forced) by the lead and `agent.stopped` (`shutdown`) for the
 * teammate; none when the request is no longer pending (an answer won the race). Pure over the
 * state: called under the log's lock.
 */
export function expireShutdown(
  state: State,
  session: string,
  id: string,
  reading: { timeoutMs: number; at: string },
): NewEvent[] {
  const request = sessionProtocols(state, session).byId[id];
  if (request === undefined || request.kind !== "shutdown" || request.status !== "pending") {
    return [];
  }
  return [
    {
      type: "protocol.expired",
      data: { id, timeoutMs: reading.timeoutMs, at: reading.at, forced: true },
      session,
      agent: request.from,
    },
    {
      type: "agent.stopped",
      data: { reason: "shutdown", forced: true },
      session,
      agent: request.to,
    },
  ];
}

/**
 * The `agent.stopped` (`shutdown`) of teammate `agent` once it approved its shutdown and its
 * turn ended (`forced` when the lead stopped it without waiting for that end), recorded by the
 * lead's process; none when its stop is already recorded. Pure over the state: called under the
 * log's lock.
 */
export function recordStop(
  state: State,
  session: string,
  agent: string,
  forced: boolean,
): NewEvent[] {
  if (sessionProtocols(state, session).stopRecorded[agent]) return [];
  return [{
    type: "agent.stopped",
    data: { reason: "shutdown", ...(forced ? { forced } : {}) },
    session,
    agent,
  }];
}
