import type { Envelope, EventPayloads, EventType } from "../events/event_types.ts";

/** Build envelopes for given/when/then tests of the projections. */
export function eventFactory(session = "s1", agent = "lead") {
  let seq = 0;
  return function event<T extends EventType>(type: T, data: EventPayloads[T]): Envelope {
    seq += 1;
    return {
      v: 1,
      seq,
      ts: `2026-11-22T10:00:${String(seq % 60).padStart(2, "0")}.000Z`,
      type,
      session,
      agent,
      data,
    } as Envelope;
  };
}

/** A `session.started` payload with test defaults. */
export function startedData(
  overrides: Partial<EventPayloads["session.started"]> = {},
): EventPayloads["session.started"] {
  return {
    model: "claude-test",
    workspace: "/work/project",
    startedAt: "2026-11-22T10:00:00.000Z",
    maxTokens: 1000,
    platform: "linux x86_64",
    ...overrides,
  };
}

/** A `model.responded` payload with the given content blocks. */
export function respondedData(
  content: EventPayloads["model.responded"]["content"],
): EventPayloads["model.responded"] {
  return {
    messageId: "msg_1",
    model: "claude-test",
    content,
    stopReason: content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn",
    usage: { input_tokens: 10, output_tokens: 5 },
    requestId: "req_1",
  };
}
