import type { State } from "../state/state.ts";
import type { AnyTool, Tool, ToolResult } from "../tools/tool.ts";
import { isProtocolFrame, protocolFrame } from "./protocol_frame.ts";

/** What send_message's input carries that a frame may be in (rein's `content`, CC's `message`). */
interface SendInput {
  to: string;
  content?: unknown;
  message?: unknown;
}

const framed = new WeakMap<AnyTool, AnyTool>();

/**
 * send_message (Claude Code's `SendMessage`) as the protocols see it: a message that is a
 * protocol frame (`shutdown_request`, `shutdown_response`, `plan_approval_response`, see
 * `protocolFrame`) is decided as the protocol tools decide it (under the log's lock, replayed as
 * a decider); any other message goes to `send` unchanged. One wrapper per tool.
 */
export function framedSendMessage(send: AnyTool): AnyTool {
  let tool = framed.get(send);
  if (tool !== undefined) return tool;
  const wrapped: Tool<SendInput> = {
    ...send,
    run(input, context) {
      const message = input.content ?? input.message;
      if (!isProtocolFrame(message)) return send.run(input, context);
      const caller = { session: context.session, agent: context.agent, callId: context.callId };
      const decide = (state: State): ToolResult =>
        protocolFrame(state, caller, input.to, message) ?? {
          content: "Not a protocol frame",
          isError: true,
        };
      return Promise.resolve({ ...decide(context.view()), decide });
    },
  };
  tool = wrapped;
  framed.set(send, tool);
  return tool;
}
