import type { State } from "../state/state.ts";
import type { Tool, ToolResult } from "../tools/tool.ts";
import { shownLetters } from "./mail_arrivals.ts";
import { unreadMail } from "./mail_of.ts";
import { teammateMessages } from "./teammate_message.ts";

/** check_inbox takes no input. */
export type CheckInboxInput = Record<string, never>;

/** The only description of check_inbox's input: a JSON Schema, no zod. */
export const CHECK_INBOX_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {},
  additionalProperties: false,
};

/**
 * `check_inbox`: the calling agent's unread mail now, as `<teammate-message>` blocks, marked
 * read by a `mail.read` (so it does not reach the model again with the next request); "No
 * unread mail" records nothing. Decided under the log's lock (`decide`), so a letter is read
 * here or put before the model, never both; a decider, checked again by replay.
 */
export const checkInboxTool: Tool<CheckInboxInput> = {
  name: "check_inbox",
  description: "Reads the messages other agents sent you that you have not seen yet. They also " +
    "reach you on their own before your next step: call this only when you must see them now, " +
    "in the middle of your work.",
  inputSchema: CHECK_INBOX_INPUT_SCHEMA,
  kind: "decider",
  readOnly: false,
  permission: "read-only",
  summarize: () => "",
  run(_input, context) {
    const decide = (state: State): ToolResult => {
      const letters = unreadMail(state, context.session, context.agent);
      if (letters.length === 0) return { content: "No unread mail" };
      return {
        content: teammateMessages(shownLetters(state, context.session, letters)),
        events: [{ type: "mail.read", data: { ids: letters.map((letter) => letter.id) } }],
      };
    };
    return Promise.resolve({ ...decide(context.view()), decide });
  },
};
