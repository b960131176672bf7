/**
 * Mail between the agents of a session (s15): send_message (Claude Code's SendMessage) and
 * check_inbox, inboxes as a projection, unread mail delivered before an agent's next request as
 * `<teammate-message>` blocks exactly once, mail waking an idle agent, all behind the `teams`
 * feature and Claude Code's `CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS`.
 *
 * @module
 */
export {
  CHECK_INBOX_INPUT_SCHEMA,
  type CheckInboxInput,
  checkInboxTool,
} from "./check_inbox_tool.ts";
export { mailArrivals, shownLetters } from "./mail_arrivals.ts";
export { mailMechanism } from "./mail_mechanism.ts";
export {
  arrivalKey,
  type Letter,
  MAIL_SOURCE,
  mailProjection,
  type MailSlice,
  type SessionMail,
} from "./mail_projection.ts";
export { sessionMail, unreadMail } from "./mail_of.ts";
export {
  type Addressed,
  addressMail,
  mailName,
  type MailRecipient,
  mailRecipients,
  TEAM_LEAD,
} from "./mail_recipients.ts";
export { renderMailEvent, reportMail } from "./mail_render.ts";
export { mailWake } from "./mail_wake.ts";
export {
  SEND_MESSAGE_INPUT_SCHEMA,
  type SendMessageInput,
  sendMessageTool,
} from "./send_message_tool.ts";
export { type ShownLetter, teammateMessages } from "./teammate_message.ts";
export { TEAMS_ENV, TEAMS_FEATURE, teamsEnabled, teamsOn } from "./teams_enabled.ts";
