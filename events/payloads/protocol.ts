import type { EventTable } from "./_payload.ts";

/** Which protocol a request is of (s16). */
export type ProtocolKind = "shutdown" | "plan_approval";

/**
 * An agent asked another for an answer it must give (s16): the lead asked a teammate to shut
 * down (`request_shutdown`, Claude Code's `SendMessage` `shutdown_request` frame), or a teammate
 * in plan mode asked the lead to approve its plan (`submit_plan`, Claude Code's `ExitPlanMode`).
 * Recorded by the asker's loop (the envelope's agent is `from`). The request is pending until a
 * `protocol.answered` or a `protocol.expired` with its id.
 */
export interface ProtocolRequested {
  /** Unique in the session: the asking call's id. */
  id: string;
  kind: ProtocolKind;
  /** The asker's agent name. */
  from: string;
  /** The agent that must answer. */
  to: string;
  /** Why the lead asks a teammate to shut down, when it said. */
  reason?: string;
  /** The plan to approve (plan_approval). */
  plan?: string;
}

/**
 * The agent a request was addressed to answered it (`respond_shutdown`, `review_plan`, or the
 * matching `SendMessage` frame), decided under the log's lock: only a pending request can be
 * answered, so of two answers only the first is recorded.
 */
export interface ProtocolAnswered {
  /** The request's id. */
  id: string;
  approve: boolean;
  /** Who answered (the request's `to`). */
  by: string;
  /** Why (a shutdown refused), or the feedback on a plan. */
  reason?: string;
  /**
   * The person answered it at the lead's REPL (a plan, "y / n + feedback") in the lead's name:
   * appended by the REPL from outside every loop, so replay feeds it where it was.
   */
  person?: true;
}

/**
 * A request went unanswered past its timeout (a shutdown: `REIN_SHUTDOWN_TIMEOUT_MS`, 30 s by
 * default): appended by the asker's process from outside its loop, under the log's lock and only
 * while the request is still pending, with the clock reading that decided it, so replay feeds it
 * where it was and never reads a clock. A shutdown that expired was forced: the lead stopped the
 * teammate (its `agent.stopped` follows in the same batch).
 */
export interface ProtocolExpired {
  /** The request's id. */
  id: string;
  /** How long the asker waited, in milliseconds. */
  timeoutMs: number;
  /** When it gave up (ISO time, the asker's clock). */
  at: string;
  /** The lead stopped the teammate without its answer. */
  forced: boolean;
}

/** Requests with an id and a state machine between agents of a session (s16). */
export interface ProtocolEvents {
  "protocol.requested": ProtocolRequested;
  "protocol.answered": ProtocolAnswered;
  "protocol.expired": ProtocolExpired;
}

/** The event types of ProtocolEvents, for validation on read. */
export const PROTOCOL_EVENTS: EventTable<ProtocolEvents> = {
  "protocol.requested": true,
  "protocol.answered": true,
  "protocol.expired": true,
};
