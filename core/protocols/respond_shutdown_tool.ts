import type { State } from "../state/state.ts";
import type { Tool } from "../tools/tool.ts";
import { respondShutdown, type RespondShutdownInput } from "./protocol_deciders.ts";

/** The only description of respond_shutdown's input: a JSON Schema. */
export const RESPOND_SHUTDOWN_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    approve: { type: "boolean", description: "true: stop now; false: keep working" },
    reason: { type: "string", description: "Why you keep working (required to refuse)" },
    request_id: {
      type: "string",
      description: "The request answered; by default the one pending for you",
    },
  },
  required: ["approve"],
  additionalProperties: false,
};

/**
 * `respond_shutdown` (a teammate; Claude Code's `SendMessage` `shutdown_response` frame): answers
 * the shutdown request addressed to it. Approving ends its work after this call (`agent.stopped`);
 * refusing tells the lead why. A decider, decided under the log's lock: of two answers to one
 * request only the first is recorded.
 */
export const respondShutdownTool: Tool<RespondShutdownInput> = {
  name: "respond_shutdown",
  description:
    "Answers the lead's request that you shut down: approve to stop after this call, or refuse with a reason to keep working.",
  inputSchema: RESPOND_SHUTDOWN_INPUT_SCHEMA,
  kind: "decider",
  readOnly: false,
  permission: "read-only",
  summarize: (input) => input.approve ? "approve" : "refuse",
  run(input, context) {
    const caller = { session: context.session, agent: context.agent, callId: context.callId };
    const decide = (state: State) => respondShutdown(state, caller, input);
    return Promise.resolve({ ...decide(context.view()), decide });
  },
};
