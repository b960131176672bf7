import type { State } from "../state/state.ts";
import { sliceOf } from "../state/state.ts";
import {
  emptyProtocols,
  type ProtocolRequest,
  protocolsProjection,
  type SessionProtocols,
} from "./protocol_projection.ts";

const EMPTY: SessionProtocols = emptyProtocols();

/** What the protocols folded of `session` (empty when nothing). Pure. */
export function sessionProtocols(state: State, session: string): SessionProtocols {
  return sliceOf(state, protocolsProjection)[session] ?? EMPTY;
}

/** Whether `agent` is a teammate of `session` (spawned by the lead as one). Pure. */
export function isTeammate(state: State, session: string, agent: string): boolean {
  return sessionProtocols(state, session).teammates[agent] === true;
}

/** Whether `agent` is the lead (the session's main agent). Pure. */
export function isLead(state: State, session: string, agent: string): boolean {
  return state.sessions.byId[session]?.mainAgent === agent;
}

/**
 * Whether the gate refuses `agent`'s writes and commands: a teammate spawned in plan mode whose
 * plan is not approved yet. Pure.
 */
export function planGated(state: State, session: string, agent: string): boolean {
  return sessionProtocols(state, session).planGated[agent] === true;
}

/** The requests of `session` that are still pending, oldest first, that `keep` keeps. Pure. */
export function pendingRequests(
  state: State,
  session: string,
  keep: (request: ProtocolRequest) => boolean = () => true,
): ProtocolRequest[] {
  const protocols = sessionProtocols(state, session);
  return protocols.order.flatMap((id) => {
    const request = protocols.byId[id];
    return request !== undefined && request.status === "pending" && keep(request) ? [request] : [];
  });
}

/**
 * The lead `agent`'s shutdown requests still to settle: pending, or approved while the
 * teammate's `agent.stopped` is not recorded yet (the lead's process records it once the
 * teammate's turn has ended). Pure.
 */
export function unsettledShutdowns(
  state: State,
  session: string,
  agent: string,
): ProtocolRequest[] {
  const protocols = sessionProtocols(state, session);
  return protocols.order.flatMap((id) => {
    const request = protocols.byId[id];
    if (request === undefined || request.kind !== "shutdown" || request.from !== agent) return [];
    const unsettled = request.status === "pending" ||
      (request.status === "approved" && !protocols.stopRecorded[request.to]);
    return unsettled ? [request] : [];
  });
}
