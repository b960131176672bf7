import type { Tool } from "../tools/tool.ts";
import { requestShutdown, type RequestShutdownInput } from "./protocol_deciders.ts";

/** The only description of request_shutdown's input: a JSON Schema. */
export const REQUEST_SHUTDOWN_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    to: { type: "string", description: "The teammate's name" },
    reason: { type: "string", description: "Why it should stop, which it sees" },
  },
  required: ["to"],
  additionalProperties: false,
};

/**
 * `request_shutdown` (the lead; Claude Code's `SendMessage` `shutdown_request` frame): records a
 * pending shutdown request and the mail that carries it to the teammate, which must answer with
 * `respond_shutdown`; unanswered past `REIN_SHUTDOWN_TIMEOUT_MS` the lead stops it (see
 * `shutdownWatcher`). A decider, decided under the log's lock.
 */
export const requestShutdownTool: Tool<RequestShutdownInput> = {
  name: "request_shutdown",
  specifierFields: ["to"],
  description:
    "Asks a teammate to shut down once it is done. It answers by approving (it stops) or refusing with a reason (you are told why); a teammate that does not answer in time is stopped.",
  inputSchema: REQUEST_SHUTDOWN_INPUT_SCHEMA,
  kind: "decider",
  readOnly: false,
  permission: "read-only",
  summarize: (input) => input.to,
  run(input, context) {
    const caller = { session: context.session, agent: context.agent, callId: context.callId };
    const decide = (state: Parameters<typeof requestShutdown>[0]) =>
      requestShutdown(state, caller, input);
    return Promise.resolve({ ...decide(context.view()), decide });
  },
};
