import type { State } from "../state/state.ts";
import type { Tool } from "../tools/tool.ts";
import { planAnswer } from "./protocol_deciders.ts";

/** Input of submit_plan. */
export interface SubmitPlanInput {
  plan: string;
}

/** The only description of submit_plan's input: a JSON Schema. */
export const SUBMIT_PLAN_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: { plan: { type: "string", description: "The plan, in markdown" } },
  required: ["plan"],
  additionalProperties: false,
};

/**
 * `submit_plan` (a teammate in plan mode; Claude Code's `ExitPlanMode` in a teammate): sends the
 * plan to the lead and waits for its answer. The waiting is the protocols gate's (a stage, where
 * `StageContext.waitFor` serves the lead's answer live and from the log in replay); the call then
 * returns the answer, a decider over the state the answer is in: approved, its writes are open;
 * rejected, the lead's feedback, to revise and submit again.
 */
export const submitPlanTool: Tool<SubmitPlanInput> = {
  name: "submit_plan",
  claudeNames: ["ExitPlanMode"],
  description:
    "Sends your plan to the lead for approval and waits for the answer. In plan mode you can only read until the lead approves a plan; a rejection comes with feedback to revise it.",
  inputSchema: SUBMIT_PLAN_INPUT_SCHEMA,
  kind: "decider",
  readOnly: false,
  permission: "read-only",
  summarize: (input) => input.plan.split("\n")[0] ?? "",
  run(_input, context) {
    const caller = { session: context.session, agent: context.agent, callId: context.callId };
    const decide = (state: State) => planAnswer(state, caller);
    return Promise.resolve({ ...decide(context.view()), decide });
  },
};
