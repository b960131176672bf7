import type { ConversationMessage } from "../../events/event_types.ts";
import { isFrozenMessage } from "../state/message.ts";

/**
 * What a planner finds in each message of a conversation, found once per message. The planners
 * run before every model call, over the whole conversation, and a conversation changes little
 * from one call to the next: the facts of its leading messages that are the same objects as at
 * the last call are taken again, and only the rest are looked at. Only messages frozen with their
 * content (a projected conversation's: core/state/message.ts) are kept, since only those hold
 * what they held; a conversation of other messages is looked at whole each time. What is kept is
 * derived from the messages alone, so a planner stays a pure function of them.
 */
export class MessageFacts<T> {
  readonly #find: (message: ConversationMessage) => T;
  /**
   * By a conversation's first message: its leading frozen messages at the last call, and their
   * facts (cut and added to in place by the next call).
   */
  readonly #runs = new WeakMap<object, { messages: ConversationMessage[]; facts: T[] }>();

  constructor(find: (message: ConversationMessage) => T) {
    this.#find = find;
  }

  /**
   * The facts of each of `messages`, in order, valid until the next call (which may change the
   * same array). Pure.
   */
  of(messages: readonly ConversationMessage[]): readonly T[] {
    const first = messages[0];
    if (first === undefined) return [];
    let run = this.#runs.get(first);
    if (run === undefined) this.#runs.set(first, run = { messages: [], facts: [] });
    const { messages: kept, facts } = run;
    const limit = Math.min(kept.length, messages.length);
    let count = 0;
    while (count < limit && messages[count] === kept[count]) count++;
    // The kept run is cut where the conversation changed, and goes on from there.
    kept.length = count;
    facts.length = count;
    let at = count;
    for (; at < messages.length; at++) {
      const message = messages[at] as ConversationMessage;
      if (!isFrozenMessage(message)) break;
      kept.push(message);
      facts.push(this.#find(message));
    }
    if (at === messages.length) return facts;
    const all = facts.slice();
    for (; at < messages.length; at++) all.push(this.#find(messages[at] as ConversationMessage));
    return all;
  }
}
