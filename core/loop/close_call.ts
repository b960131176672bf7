import type { CallOutcome, ToolCompleted } from "../../events/event_types.ts";
import type { PendingCall } from "../state/conversation.ts";

/** Why a call is closed without its tool producing the result, with what the model is told. */
export type Closing =
  /** The user cancelled the turn before the call started. */
  | { outcome: "cancelled" }
  /** The process died while the call ran: its effect is unknown. */
  | { outcome: "interrupted" }
  /** Its input was cut off by the output token limit. */
  | { outcome: "not_run"; why: "truncated" }
  /** A new prompt after a crash superseded it before it started. */
  | { outcome: "not_run"; why: "superseded" }
  /** The session was forked from another one before its result was recorded. */
  | { outcome: "not_run"; why: "forked" }
  /** The tool does not exist or the input does not fit its schema: `message` says how. */
  | { outcome: "not_run"; why: "invalid"; message: string }
  /** A rule, a mode or a person refused it; a hook blocked it. */
  | { outcome: "denied" | "blocked"; reason: string };

/**
 * The one place where a call is closed without running: the `tool.completed` payload, an error
 * result worded for the model, with the {@link CallOutcome} that says why. Pure.
 */
export function closeCall(call: PendingCall, closing: Closing): ToolCompleted {
  return {
    callId: call.id,
    name: call.name,
    content: closingText(closing),
    isError: true,
    durationMs: 0,
    outcome: closing.outcome satisfies CallOutcome,
  };
}

function closingText(closing: Closing): string {
  switch (closing.outcome) {
    case "cancelled":
      return "Cancelled by the user before it ran";
    case "interrupted":
      return "Interrupted: outcome unknown. The agent stopped while this call was running, so it " +
        "may or may not have taken effect; check before repeating it.";
    case "not_run":
      switch (closing.why) {
        case "truncated":
          return "Not run: your reply hit the output token limit (max_tokens) while this call " +
            "was being written, so its input may be incomplete. Make the call again, smaller if " +
            "you can (for example, write a large file in several edits).";
        case "superseded":
          return "Not run: the session was interrupted before this call started.";
        case "forked":
          return "Not run in this session: it was forked from another session before this " +
            "call's result was recorded.";
        case "invalid":
          return closing.message;
      }
      break;
    case "denied":
      return `Permission denied: ${closing.reason}`;
    case "blocked":
      return `Blocked by a hook: ${closing.reason}`;
  }
}
