import type { Envelope, ProtocolKind } from "../../events/event_types.ts";
import type { Projection } from "../state/projection.ts";

/** Where a request stands: pending until answered or expired, then never again. */
export type ProtocolStatus = "pending" | "approved" | "rejected" | "expired";

/** One protocol request of a session, as its events left it. */
export interface ProtocolRequest {
  id: string;
  kind: ProtocolKind;
  from: string;
  to: string;
  status: ProtocolStatus;
  /** seq of its `protocol.requested`. */
  seq: number;
  /** Why it was asked (a shutdown's reason). */
  reason?: string;
  plan?: string;
  /** The answer's reason or feedback. */
  answer?: string;
}

/** What the protocols fold of one session. */
export interface SessionProtocols {
  /** Every request by id. */
  byId: Record<string, ProtocolRequest>;
  /** Request ids, oldest first. */
  order: string[];
  /**
   * Teammates spawned in plan mode (`agent.spawned`'s `teammate.mode` `plan`) whose plan is not
   * approved yet: the gate refuses their writes and commands.
   */
  planGated: Record<string, true>;
  /** Teammates spawned in plan mode, approved or not (they keep submit_plan). */
  planMode: Record<string, true>;
  /** Agents whose `agent.stopped` is in the log. */
  stopRecorded: Record<string, true>;
  /** Teammates of the session (an `agent.spawned` with `teammate`), by name. */
  teammates: Record<string, true>;
  /**
   * Teammates stopped for good or about to be: an `agent.stopped`, an approved shutdown, a
   * shutdown that expired (forced).
   */
  stopped: Record<string, true>;
}

/** What the protocols fold, by session id. */
export type ProtocolsSlice = Record<string, SessionProtocols>;

/** An empty session entry. */
export function emptyProtocols(): SessionProtocols {
  return {
    byId: {},
    order: [],
    planGated: {},
    planMode: {},
    stopRecorded: {},
    teammates: {},
    stopped: {},
  };
}

/**
 * The status a request goes to on an answer or an expiry, or undefined when it cannot (it is no
 * longer pending: only the first answer counts). The state machine: pending → approved |
 * rejected | expired. Pure.
 */
export function nextStatus(
  status: ProtocolStatus,
  step: { answer: boolean } | "expire",
): ProtocolStatus | undefined {
  if (status !== "pending") return undefined;
  if (step === "expire") return "expired";
  return step.answer ? "approved" : "rejected";
}

/**
 * Every session's protocol requests (s16) and who they gate: `protocol.requested` adds a pending
 * request, `protocol.answered` and `protocol.expired` settle a pending one (a second answer
 * changes nothing: see {@link nextStatus}); an approved plan opens its teammate's gate. A
 * per-session slice, as mail's: a request is between two agents of one session, the gate and the
 * tools ask per session and agent, and replay re-drives one session from its own events.
 */
export const protocolsProjection: Projection<ProtocolsSlice> = {
  key: "protocols",
  canHandle: [
    "agent.spawned",
    "agent.stopped",
    "protocol.requested",
    "protocol.answered",
    "protocol.expired",
  ],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    switch (event.type) {
      case "agent.spawned": {
        const teammate = event.data.teammate;
        if (teammate === undefined) break;
        const session = slice[event.session] ??= emptyProtocols();
        session.teammates[event.agent] = true;
        if (teammate.mode === "plan") {
          session.planGated[event.agent] = true;
          session.planMode[event.agent] = true;
        }
        break;
      }
      case "agent.stopped": {
        const session = slice[event.session] ??= emptyProtocols();
        session.stopped[event.agent] = true;
        session.stopRecorded[event.agent] = true;
        break;
      }
      case "protocol.requested": {
        const session = slice[event.session] ??= emptyProtocols();
        const { id, kind, from, to, reason, plan } = event.data;
        if (session.byId[id] !== undefined) break;
        session.byId[id] = {
          id,
          kind,
          from,
          to,
          status: "pending",
          seq: event.seq,
          ...(reason === undefined ? {} : { reason }),
          ...(plan === undefined ? {} : { plan }),
        };
        session.order.push(id);
        break;
      }
      case "protocol.answered": {
        const session = slice[event.session];
        const request = session?.byId[event.data.id];
        if (session === undefined || request === undefined) break;
        const status = nextStatus(request.status, { answer: event.data.approve });
        if (status === undefined) break;
        request.status = status;
        if (event.data.reason !== undefined) request.answer = event.data.reason;
        if (request.kind === "plan_approval" && status === "approved") {
          delete session.planGated[request.from];
        }
        if (request.kind === "shutdown" && status === "approved") {
          session.stopped[request.to] = true;
        }
        break;
      }
      case "protocol.expired": {
        const session = slice[event.session];
        const request = session?.byId[event.data.id];
        const status = request && nextStatus(request.status, "expire");
        if (session === undefined || request === undefined || status === undefined) break;
        request.status = status;
        if (request.kind === "shutdown") session.stopped[request.to] = true;
        break;
      }
    }
    return slice;
  },
};
