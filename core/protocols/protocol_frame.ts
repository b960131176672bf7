import type { State } from "../state/state.ts";
import type { ToolResult } from "../tools/tool.ts";
import { type Caller, requestShutdown, respondShutdown, reviewPlan } from "./protocol_deciders.ts";

/** The Claude Code `SendMessage` frames that drive a protocol (see compat: SendMessage). */
export const PROTOCOL_FRAME_TYPES: readonly string[] = [
  "shutdown_request",
  "shutdown_response",
  "plan_approval_response",
];

/** Whether `message` is a protocol frame (an object, or a string of its JSON). Pure. */
export function isProtocolFrame(message: unknown): boolean {
  return frameOf(message) !== undefined;
}

/** A frame as an object: `message` given as one, or a string holding its JSON. */
function frameOf(message: unknown): Record<string, unknown> | undefined {
  let value = message;
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (!trimmed.startsWith("{")) return undefined;
    try {
      value = JSON.parse(trimmed);
    } catch {
      return undefined;
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const frame = value as Record<string, unknown>;
  return typeof frame.type === "string" && PROTOCOL_FRAME_TYPES.includes(frame.type)
    ? frame
    : undefined;
}

/** A string field of a frame, or undefined. */
function field(frame: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    if (typeof frame[name] === "string") return frame[name] as string;
  }
  return undefined;
}

/**
 * What Claude Code's `SendMessage {to, message}` does when `message` is a protocol frame
 * (`{type: "shutdown_request", reason?}`, `{type: "shutdown_response", request_id, approve,
 * reason?}`, `{type: "plan_approval_response", request_id, approve, feedback?}`, as an object or
 * a string of its JSON): the same decision as `request_shutdown`, `respond_shutdown` and
 * `review_plan` (the frame's `to` is the teammate asked, or whose plan is answered). Undefined
 * for a message that is not such a frame: it is plain mail. Pure over the state; call it inside
 * send_message's `decide`, under the log's lock.
 */
export function protocolFrame(
  state: State,
  caller: Caller,
  to: string,
  message: unknown,
): ToolResult | undefined {
  const frame = frameOf(message);
  if (frame === undefined) return undefined;
  const reason = field(frame, "reason");
  const requestId = field(frame, "request_id", "requestId");
  const approve = frame.approve ?? frame.approved;
  if (frame.type === "shutdown_request") {
    return requestShutdown(state, caller, { to, ...(reason === undefined ? {} : { reason }) });
  }
  if (typeof approve !== "boolean") {
    return { content: `A ${frame.type} frame needs "approve": true or false`, isError: true };
  }
  if (frame.type === "shutdown_response") {
    return respondShutdown(state, caller, {
      approve,
      ...(reason === undefined ? {} : { reason }),
      ...(requestId === undefined ? {} : { request_id: requestId }),
    });
  }
  const feedback = field(frame, "feedback");
  return reviewPlan(state, caller, {
    approve,
    ...(requestId === undefined ? { teammate: to } : { request_id: requestId }),
    ...(feedback === undefined ? {} : { feedback }),
  });
}
