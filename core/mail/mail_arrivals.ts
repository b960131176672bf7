import type { Arrival } from "../loop/arrivals.ts";
import type { State } from "../state/state.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import { mailName } from "./mail_recipients.ts";
import { unreadMail } from "./mail_of.ts";
import { arrivalKey, type Letter, MAIL_SOURCE } from "./mail_projection.ts";
import { type ShownLetter, teammateMessages } from "./teammate_message.ts";
import { teamsOn } from "./teams_enabled.ts";

/** `letters` as their recipient reads them: each sender as it may be addressed back. Pure. */
export function shownLetters(
  state: State,
  session: string,
  letters: readonly Letter[],
): ShownLetter[] {
  return letters.map((letter) => ({
    from: mailName(state, session, letter.from),
    content: letter.content,
    ...(letter.summary === undefined ? {} : { summary: letter.summary }),
    ...(letter.person === true ? { person: true } : {}),
  }));
}

/**
 * The mail `scope`'s agent has not had, as one arrival before its next request (its letters'
 * `<teammate-message>` blocks joined by blank lines, keyed by their ids, at the oldest one's
 * seq), in a session where mail is on; none otherwise. Its `arrival.injected` takes them out of
 * the inbox, so each letter reaches the model once, across crashes and resumes. Pure.
 */
export function mailArrivals(scope: PoolScope): Arrival[] {
  if (!teamsOn(scope.state, scope.session)) return [];
  const letters = unreadMail(scope.state, scope.session, scope.agent);
  const first = letters[0];
  if (first === undefined) return [];
  return [{
    source: MAIL_SOURCE,
    key: arrivalKey(letters),
    seq: first.seq,
    text: teammateMessages(shownLetters(scope.state, scope.session, letters)),
  }];
}
