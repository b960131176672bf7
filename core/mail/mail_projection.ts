import type { Envelope } from "../../events/event_types.ts";
import type { MailKind } from "../../events/payloads/mail.ts";
import type { Projection } from "../state/projection.ts";

/** The `source` of mail's arrivals (its `arrival.injected` events) and wake-ups. */
export const MAIL_SOURCE = "mail";

/** One piece of mail in an inbox, not yet read by its recipient. */
export interface Letter {
  id: string;
  /** seq of its `mail.sent`. */
  seq: number;
  /** The sender's agent name. */
  from: string;
  content: string;
  summary?: string;
  kind: MailKind;
  /** The person's own words, typed at the lead's REPL (`mail.sent`'s `person`). */
  person?: true;
}

/** What mail folds of one session. */
export interface SessionMail {
  /** How many pieces of mail were sent in the session. */
  sent: number;
  /** How many reached their recipient (put before its model, or read with check_inbox). */
  delivered: number;
  /** Each agent's unread mail, oldest first, by the recipient's name (no entry: none). */
  unread: Record<string, Letter[]>;
}

/** What mail folds, by session id (as every session's slice is kept). */
export type MailSlice = Record<string, SessionMail>;

/**
 * The keys of the arrival that delivers `letters` (`arrival.injected`'s `key`): their ids, joined
 * by commas (an id is a tool call's, which has none). Pure.
 */
export function arrivalKey(letters: readonly Pick<Letter, "id">[]): string {
  return letters.map((letter) => letter.id).join(",");
}

/**
 * Every session's inboxes: a `mail.sent` puts a letter in each recipient's; the recipient's
 * `arrival.injected` (source `mail`, its key the ids delivered) or `mail.read` takes the letters
 * it names out again. A per-session slice (not a workspace-wide one): mail never leaves its session
 * (the team is one session's agents), its arrivals and wake-ups are asked per session and agent,
 * and replay re-drives one session from its own events; a session's inboxes are kept and restored
 * with its other slices.
 */
export const mailProjection: Projection<MailSlice> = {
  key: "mail",
  canHandle: ["mail.sent", "mail.read", "arrival.injected"],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    if (event.type === "mail.sent") {
      const session = slice[event.session] ??= { sent: 0, delivered: 0, unread: {} };
      session.sent += 1;
      const { id, from, content, summary, kind, person } = event.data;
      for (const recipient of new Set(event.data.recipients)) {
        (session.unread[recipient] ??= []).push({
          id,
          seq: event.seq,
          from,
          content,
          ...(summary === undefined ? {} : { summary }),
          kind,
          ...(person === true ? { person } : {}),
        });
      }
    } else if (event.type === "mail.read") {
      take(slice[event.session], event.agent, event.data.ids);
    } else if (event.type === "arrival.injected" && event.data.source === MAIL_SOURCE) {
      take(slice[event.session], event.agent, event.data.key.split(","));
    }
    return slice;
  },
};

/** Take the letters `ids` out of `agent`'s inbox, counting them delivered. */
function take(session: SessionMail | undefined, agent: string, ids: readonly string[]): void {
  const inbox = session?.unread[agent];
  if (session === undefined || inbox === undefined) return;
  const taken = new Set(ids);
  const kept = inbox.filter((letter) => !taken.has(letter.id));
  session.delivered += inbox.length - kept.length;
  if (kept.length === 0) delete session.unread[agent];
  else session.unread[agent] = kept;
}
