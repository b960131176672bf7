import assert from "node:assert/strict";
import { sendMessageTool } from "../mail/send_message_tool.ts";
import type { State } from "../state/state.ts";
import type { AnyTool, ToolCallContext } from "../tools/tool.ts";
import { validateToolInput } from "../tools/schema.ts";
import { protocolState } from "./_protocol_fixture.ts";
import { framedSendMessage } from "./framed_send_message.ts";

/** The lead's call `callId` in session s1 of `state`. */
function leadCall(state: State, callId: string): ToolCallContext {
  return {
    signal: new AbortController().signal,
    session: "s1",
    agent: "lead",
    callId,
    cwd: "/work/project",
    view: () => state,
  };
}

/** Validate `input` as the executor does, then run the tool. */
async function call(tool: AnyTool, state: State, input: unknown) {
  const checked = await validateToolInput(tool, input);
  if (!checked.ok) return { content: checked.message, isError: true };
  return await tool.run(checked.value, leadCall(state, "toolu_1"));
}

Deno.test("send_message's content may be a protocol frame as an object: it passes the schema and drives the protocol", async () => {
  const state = protocolState(undefined, [], true);
  const framed = framedSendMessage(sendMessageTool);
  const result = await call(framed, state, {
    to: "alice",
    content: { type: "shutdown_request", reason: "all done" },
  });
  assert.equal(result.isError, undefined, result.content);
  assert.deepEqual(result.events?.map((event) => event.type), ["protocol.requested", "mail.sent"]);
  assert.deepEqual(result.events?.[0]?.data, {
    id: "toolu_1",
    kind: "shutdown",
    from: "lead",
    to: "alice",
    reason: "all done",
  });
});

Deno.test("send_message refuses an object that is not a protocol frame, saying what it may send", async () => {
  const state = protocolState(undefined, [], true);
  for (const tool of [sendMessageTool as AnyTool, framedSendMessage(sendMessageTool)]) {
    const result = await call(tool, state, { to: "alice", content: { type: "greeting" } });
    assert.deepEqual({ content: result.content, isError: result.isError }, {
      content: 'Cannot send an object of type "greeting" as a message: "content" must be text, ' +
        'or a protocol frame whose "type" is shutdown_request, shutdown_response or ' +
        "plan_approval_response",
      isError: true,
    });
  }
  const plain = await call(sendMessageTool, state, { to: "team-lead", content: "hello" });
  assert.equal(plain.isError, undefined, plain.content);
  assert.deepEqual(plain.events?.map((event) => event.type), ["mail.sent"]);
  const wrong = await call(sendMessageTool, state, { to: "alice", content: 42 });
  assert.equal(wrong.isError, true);
});
