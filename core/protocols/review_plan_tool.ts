import type { State } from "../state/state.ts";
import type { Tool } from "../tools/tool.ts";
import { reviewPlan, type ReviewPlanInput } from "./protocol_deciders.ts";

/** The only description of review_plan's input: a JSON Schema. */
export const REVIEW_PLAN_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    teammate: { type: "string", description: "The teammate whose pending plan you answer" },
    request_id: { type: "string", description: "The plan request answered (or teammate)" },
    approve: { type: "boolean", description: "true: it may implement the plan" },
    feedback: { type: "string", description: "What to change (or a note with the approval)" },
  },
  required: ["approve"],
  additionalProperties: false,
};

/**
 * `review_plan` (the lead; Claude Code's `SendMessage` `plan_approval_response` frame): answers a
 * teammate's plan. Approved, the teammate's gate opens; rejected, its `submit_plan` returns the
 * feedback and it may submit again. A decider, decided under the log's lock.
 */
export const reviewPlanTool: Tool<ReviewPlanInput> = {
  name: "review_plan",
  specifierFields: ["teammate"],
  description:
    "Approves or rejects a plan a teammate in plan mode submitted. Until you approve, it can only read; rejecting sends it your feedback to revise the plan.",
  inputSchema: REVIEW_PLAN_INPUT_SCHEMA,
  kind: "decider",
  readOnly: false,
  permission: "read-only",
  summarize: (input) => input.teammate ?? input.request_id ?? "",
  run(input, context) {
    const caller = { session: context.session, agent: context.agent, callId: context.callId };
    const decide = (state: State) => reviewPlan(state, caller, input);
    return Promise.resolve({ ...decide(context.view()), decide });
  },
};
