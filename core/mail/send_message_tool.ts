import type { State } from "../state/state.ts";
import type { Tool, ToolResult } from "../tools/tool.ts";
import { addressMail, mailName, TEAM_LEAD } from "./mail_recipients.ts";

/** Input of send_message (Claude Code's SendMessage, whose `message` is `content` here). */
export interface SendMessageInput {
  /** An agent's name, `team-lead` (or `lead`) for the lead, `*` for every other live agent. */
  to: string;
  /**
   * The message: text, or a protocol frame as an object (`{type: "shutdown_request", …}`, which
   * the protocols decide before it reaches this tool; any other object is refused).
   */
  content: string | Record<string, unknown>;
  /** A short preview the recipient sees with it (Claude Code's `summary`). */
  summary?: string;
}

/** The only description of send_message's input: a JSON Schema, no zod. */
export const SEND_MESSAGE_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    to: {
      type: "string",
      description: `The recipient: an agent's name, "${TEAM_LEAD}" for the lead, or "*" for ` +
        "every other agent",
    },
    content: {
      anyOf: [{ type: "string" }, { type: "object" }],
      description: "The message: text, or a protocol frame object such as " +
        '{"type": "shutdown_request", "reason": "..."}',
    },
    summary: {
      type: "string",
      maxLength: 200,
      description: "A 5-10 word preview of the message, shown with it",
    },
  },
  required: ["to", "content"],
  additionalProperties: false,
};

const description =
  `Sends a message to another agent of this session (its inbox), which it gets before its next step, or wakes it for if it is idle. Your plain text is not seen by the other agents: use this to tell them something.

- "to": an agent's name, "${TEAM_LEAD}" for the lead, or "*" for every other agent (use it sparingly).
- Messages from other agents reach you as <teammate-message teammate_id="..."> blocks; answer with send_message to that teammate_id.`;

/**
 * `send_message` (Claude Code's `SendMessage`, its `message` field `content` here): records one
 * `mail.sent` to the agents `to` names (see `addressMail`) and says where it went; an unknown
 * recipient is an error result naming the agents there are, and records nothing. Decided under
 * the log's lock on the state caught up with every writer (`decide`), so who is live is what the
 * log says at the send; a decider, so replay decides it again and `--verify` checks it. Never
 * asks: it changes nothing outside rein's log.
 */
export const sendMessageTool: Tool<SendMessageInput> = {
  name: "send_message",
  claudeNames: ["SendMessage"],
  claudeFields: { content: "message" },
  specifierFields: ["to"],
  description,
  inputSchema: SEND_MESSAGE_INPUT_SCHEMA,
  kind: "decider",
  readOnly: false,
  permission: "read-only",
  guidance: "Tell other agents of this session what they need with send_message; your plain " +
    "text reaches only the user.",
  summarize: (input) => input.to,
  run(input, context) {
    const decide = (state: State): ToolResult =>
      send(state, context.session, context.agent, context.callId, input);
    return Promise.resolve({ ...decide(context.view()), decide });
  },
};

/** The result of `agent` sending `input` in `session`, with its `mail.sent`. Pure. */
function send(
  state: State,
  session: string,
  agent: string,
  callId: string,
  input: SendMessageInput,
): ToolResult {
  if (typeof input.content !== "string") return notText(input.content);
  if (input.content.length > MAIL_MAX_CHARS) {
    return {
      content: `Message too long: ${input.content.length} characters, at most ${MAIL_MAX_CHARS}; ` +
        "write it to a file and send its path",
      isError: true,
    };
  }
  const addressed = addressMail(state, session, agent, input.to);
  if ("error" in addressed) return { content: addressed.error, isError: true };
  const { recipients } = addressed;
  const summary = input.summary?.trim();
  const shown = recipients.map((name) => mailName(state, session, name));
  return {
    content: recipients.length === 1
      ? `Message sent to ${shown[0]}'s inbox`
      : `Message sent to ${recipients.length} agents: ${shown.join(", ")}`,
    events: [{
      type: "mail.sent",
      data: {
        id: callId,
        from: agent,
        to: input.to.trim(),
        recipients,
        content: input.content,
        ...(summary === undefined || summary === "" ? {} : { summary }),
        kind: "message",
      },
    }],
  };
}

/**
 * The longest message text, in characters: a letter goes into every recipient's context, so one
 * agent cannot flood another's (a file is better shared by its path).
 */
export const MAIL_MAX_CHARS = 100_000;

/** The frames an object message may be (decided by the protocols, see core/protocols). */
const FRAME_TYPES = "shutdown_request, shutdown_response or plan_approval_response";

/** Why an object that is not a protocol frame cannot be sent. Pure. */
function notText(content: Record<string, unknown>): ToolResult {
  const type = typeof content.type === "string" ? ` of type ${JSON.stringify(content.type)}` : "";
  return {
    content: `Cannot send an object${type} as a message: "content" must be text, or a protocol ` +
      `frame whose "type" is ${FRAME_TYPES}`,
    isError: true,
  };
}
