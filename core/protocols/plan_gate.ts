import type { GateDecision, StageContext } from "../loop/stages.ts";
import type { PendingCall } from "../state/conversation.ts";
import { knownToolNames } from "../tools/tool_names.ts";
import { submitPlanEvents } from "./protocol_deciders.ts";
import { planGated, sessionProtocols } from "./protocols_of.ts";
import { submitPlanTool } from "./submit_plan_tool.ts";

/** What a call refused by the plan gate returns to the model. */
export const PLAN_GATE_REASON = "Plan mode: you may only read until the lead approves your " +
  "plan. Submit it with submit_plan and wait for the answer";

/**
 * The plan-approval gate of a teammate spawned in plan mode (s16), a hard gate whatever the
 * permission mode and rules say: until its plan is approved, every call of a tool that is not
 * read-only (writes a file, runs a command, an MCP server's tool) is refused. Its `submit_plan`
 * call records the request to the lead (and the mail that wakes it) and waits here, in the
 * stage, for the lead's answer (`StageContext.waitFor`: live over the log, in replay served
 * from it); then the call runs and returns the answer. A request already recorded (the gate ran
 * before a crash) is not asked again, and one already answered is not waited for.
 */
export async function planGate(context: StageContext, call: PendingCall): Promise<GateDecision> {
  const { session, agent } = context;
  if (!planGated(context.view(), session, agent)) return { run: true };
  if (call.name === submitPlanTool.name) {
    const plan = (call.input as { plan?: unknown } | null)?.plan;
    const caller = { session, agent, callId: call.id };
    const events = submitPlanEvents(context.view(), caller, typeof plan === "string" ? plan : "");
    if (events.length > 0) await context.record(events);
    const request = sessionProtocols(context.view(), session).byId[call.id];
    if (request?.status === "pending") {
      await context.waitFor(
        "protocol.answered",
        (event) => event.session === session && event.data.id === call.id,
        context.signal,
      );
    }
    return { run: true };
  }
  if (knownToolNames().permission(call.name) === "read-only") return { run: true };
  return { run: false, outcome: "denied", reason: PLAN_GATE_REASON };
}
