import { sliceOf, type State } from "../state/state.ts";
import { type Letter, mailProjection, type SessionMail } from "./mail_projection.ts";

/** `session`'s mail now: sent, delivered, and each agent's unread. Pure. */
export function sessionMail(state: State, session: string): SessionMail {
  return sliceOf(state, mailProjection)[session] ?? { sent: 0, delivered: 0, unread: {} };
}

/** `agent`'s unread mail in `session`, oldest first. Pure. */
export function unreadMail(state: State, session: string, agent: string): readonly Letter[] {
  return sliceOf(state, mailProjection)[session]?.unread[agent] ?? NONE;
}

const NONE: readonly Letter[] = [];
