import type { Mechanism } from "../mechanism.ts";
import { TEAMS_FEATURE, teamsOn } from "../mail/teams_enabled.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import { planGate } from "./plan_gate.ts";
import { protocolsProjection } from "./protocol_projection.ts";
import { isLead, isTeammate, planGated, sessionProtocols } from "./protocols_of.ts";
import { renderProtocolEvent, reportProtocols } from "./protocols_render.ts";
import { requestShutdownTool } from "./request_shutdown_tool.ts";
import { respondShutdownTool } from "./respond_shutdown_tool.ts";
import { reviewPlanTool } from "./review_plan_tool.ts";
import { submitPlanTool } from "./submit_plan_tool.ts";

const LEAD_TOOLS: readonly AnyTool[] = [requestShutdownTool, reviewPlanTool];
const TEAMMATE_TOOLS: readonly AnyTool[] = [respondShutdownTool];
const PLANNING_TOOLS: readonly AnyTool[] = [respondShutdownTool, submitPlanTool];
const NO_TOOLS: readonly AnyTool[] = [];

/** Every tool the mechanism may add, for permission rules and hook matchers. */
const ALL_TOOLS: readonly AnyTool[] = [...LEAD_TOOLS, ...PLANNING_TOOLS];

/**
 * The tools of `scope`'s agent: the lead's, a teammate's (with submit_plan when spawned in plan
 * mode: kept once approved, as a call waiting in the gate runs after its approval).
 */
function toolsOf(scope: PoolScope): readonly AnyTool[] {
  const { state, session, agent } = scope;
  if (!teamsOn(state, session)) return NO_TOOLS;
  if (isLead(state, session, agent)) return LEAD_TOOLS;
  if (!isTeammate(state, session, agent)) return NO_TOOLS;
  return sessionProtocols(state, session).planMode[agent] ? PLANNING_TOOLS : TEAMMATE_TOOLS;
}

/**
 * Protocols between the lead and its teammates (s16): requests with an id and a state machine
 * (`protocol.requested` → `protocol.answered` approved | rejected, or `protocol.expired`), a
 * per-session projection, answers decided under the log's lock so only one wins. Shutdown: the
 * lead's `request_shutdown`, the teammate's `respond_shutdown` (its turn ends after approving;
 * unanswered past `REIN_SHUTDOWN_TIMEOUT_MS`, the `ShutdownWatcher` of the lead's process
 * expires it and stops the teammate, fed in replay). Plan approval: a teammate spawned in plan
 * mode is refused every call that writes or runs a command by this mechanism's gate until the
 * lead approves its plan; its `submit_plan` waits in the gate for `review_plan`'s answer. Claude
 * Code's `SendMessage` frames drive the same deciders (`protocolFrame`). The `teams` feature.
 */
export const protocolsMechanism: Mechanism = {
  name: "protocols",
  feature: TEAMS_FEATURE,
  projection: protocolsProjection,
  tools: toolsOf,
  toolFacts: ALL_TOOLS,
  // The lead's process appends an expiry from outside any loop: replay feeds it.
  fedTypes: ["protocol.expired"],
  render: renderProtocolEvent,
  report: reportProtocols,
  // PreToolUse hooks see the call first; the gate refuses before a rule or a person is asked.
  after: ["hooks"],
  before: ["permissions"],
  stages: {
    gateCall: planGate,
    stopAfterCalls(context) {
      const stopped = sessionProtocols(context.view(), context.session).stopped[context.agent];
      return Promise.resolve(stopped ? "The lead's shutdown request was approved" : undefined);
    },
  },
  sections(scope) {
    const { state, session, agent } = scope;
    if (!teamsOn(state, session) || !planGated(state, session, agent)) return [];
    return [{
      id: "plan_approval",
      stability: 1,
      text: "# Plan mode\nYou are in plan mode: you may read and search, but every call that " +
        "writes a file or runs a command is refused until the lead approves your plan. When " +
        "your plan is ready, send it with submit_plan and wait for the answer; if it is " +
        "rejected, revise it with the feedback and submit again.",
    }];
  },
};
