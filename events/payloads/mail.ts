import type { EventTable } from "./_payload.ts";

/**
 * What a piece of mail is: a plain message now; the protocol frames (a shutdown request, a plan
 * approval's answer) are kinds of their own later.
 */
export type MailKind = "message";

/**
 * An agent sent mail to other agents of its session (`send_message`, Claude Code's
 * `SendMessage`): the send is this event and nothing else. Recorded by the sender's loop with the
 * call's result, so the envelope's agent is the sender. Each recipient's inbox (a projection)
 * holds it until it reaches that agent's model (`arrival.injected`) or the agent reads it
 * (`mail.read`).
 */
export interface MailSent {
  /** Unique in the session (the sending call's id). */
  id: string;
  /** The sender's agent name. */
  from: string;
  /** The address as given: an agent's name, `lead` (the session's main agent) or `*` (everyone). */
  to: string;
  /**
   * The agents it went to, resolved from `to` when it was sent (a broadcast: every live agent but
   * the sender), so the inboxes are a fold of this event alone.
   */
  recipients: string[];
  content: string;
  /** A short preview (Claude Code's `summary`), when the sender gave one. */
  summary?: string;
  kind: MailKind;
  /**
   * The person's own words, typed at the lead's REPL (`@alice text`) and sent as the lead's mail:
   * appended by the REPL from outside every loop, so replay feeds it where it was.
   */
  person?: true;
}

/** An agent read mail from its inbox in the middle of a turn (`check_inbox`). */
export interface MailRead {
  /** The ids of the mail read, oldest first. */
  ids: string[];
}

/** Mail between the agents of a session (s15). */
export interface MailEvents {
  "mail.sent": MailSent;
  "mail.read": MailRead;
}

/** The event types of MailEvents, for validation on read. */
export const MAIL_EVENTS: EventTable<MailEvents> = {
  "mail.sent": true,
  "mail.read": true,
};
