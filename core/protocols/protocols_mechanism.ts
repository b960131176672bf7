import type { NewEvent, ReinEvent } from "../../events/event_types.ts";
import type { EventStore } from "../../events/store.ts";
import type { StageContext } from "../loop/stages.ts";
import type { Mechanism } from "../mechanism.ts";
import { TEAMS_FEATURE, teamsOn } from "../mail/teams_enabled.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import { endShutdowns } from "./end_shutdowns.ts";
import { framedSendMessage } from "./framed_send_message.ts";
import { planGate } from "./plan_gate.ts";
import { protocolsProjection } from "./protocol_projection.ts";
import {
  isLead,
  isTeammate,
  pendingRequests,
  planGated,
  sessionProtocols,
  unsettledShutdowns,
} from "./protocols_of.ts";
import { renderProtocolEvent, reportProtocols } from "./protocols_render.ts";
import { requestShutdownTool } from "./request_shutdown_tool.ts";
import { ShutdownWatcher } from "./shutdown_watcher.ts";
import { respondShutdownTool } from "./respond_shutdown_tool.ts";
import { reviewPlanTool } from "./review_plan_tool.ts";
import { submitPlanTool } from "./submit_plan_tool.ts";
import { teamReminder } from "./team_reminder.ts";

const LEAD_TOOLS: readonly AnyTool[] = [requestShutdownTool, reviewPlanTool];
const TEAMMATE_TOOLS: readonly AnyTool[] = [respondShutdownTool];
const PLANNING_TOOLS: readonly AnyTool[] = [respondShutdownTool, submitPlanTool];
const NO_TOOLS: readonly AnyTool[] = [];

/** The mail tool whose protocol frames the protocols decide. */
const SEND_MESSAGE = "send_message";

/** Pools with send_message framed, by the pool given (asked again with the same list). */
const FRAMED = new WeakMap<readonly AnyTool[], readonly AnyTool[]>();

/** `pool` with its send_message deciding protocol frames. */
function framedPool(pool: readonly AnyTool[]): readonly AnyTool[] {
  let kept = FRAMED.get(pool);
  if (kept === undefined) {
    kept = pool.map((tool) => tool.name === SEND_MESSAGE ? framedSendMessage(tool) : tool);
    FRAMED.set(pool, kept);
  }
  return kept;
}

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

/** The `source` of the reminders the protocols add (after a compaction). */
export const PROTOCOLS_SOURCE = "protocols";

/**
 * After `context`'s agent's conversation was compacted: the protocol requests still pending
 * that it asked or must answer, put back as a reminder (as todos are), so a compaction never
 * makes an agent forget a shutdown it must answer or a plan it waits on.
 */
export function reinjectPending(context: StageContext): ReinEvent[] {
  const { session, agent } = context;
  const pending = pendingRequests(
    context.view(),
    session,
    (request) => request.from === agent || request.to === agent,
  );
  if (pending.length === 0) return [];
  const lines = pending.map((request) => {
    const what = request.kind === "shutdown" ? "shut down" : "approve a plan";
    return request.to === agent
      ? `- ${request.from} asks you to ${what} (request ${request.id}): answer with ${
        request.kind === "shutdown" ? "respond_shutdown" : "review_plan"
      }`
      : `- you asked ${request.to} to ${what} (request ${request.id}): no answer yet`;
  });
  const text = `Protocol requests still pending after the compaction:\n${lines.join("\n")}`;
  return [{ type: "reminder.added", data: { source: PROTOCOLS_SOURCE, text } }];
}

/** What the protocols mechanism is wired with. */
export interface ProtocolsOptions {
  /**
   * The live side of shutdown timeouts, in a process that runs the lead with its teammates:
   * absent in replay (the expiries are fed from the log) and where no teammate runs.
   */
  watch?: {
    /** The harness's log. */
    log: () => EventStore;
    /** The wall clock, whose reading is recorded with an expiry. */
    clock: () => Date;
    /** How long the lead waits for an answer (`REIN_SHUTDOWN_TIMEOUT_MS`, see `shutdownTimeoutMs`). */
    timeoutMs: number;
  };
}

/**
 * Protocols between the lead and its teammates (s16): requests with an id and a state machine
 * (`protocol.requested` → `protocol.answered` approved | rejected, or `protocol.expired`), a
 * per-session projection, answers decided under the log's lock so only one wins. Shutdown: the
 * lead's `request_shutdown`, the teammate's `respond_shutdown` (its turn ends after approving);
 * live, each pending request of the lead is watched (`ShutdownWatcher`) and, unanswered past the
 * timeout, expired with the teammate stopped, while `rein -p` waits for it (fed in replay). Plan
 * approval: a teammate spawned in plan mode is refused every call that writes or runs a command
 * by this mechanism's gate until the lead approves its plan; its `submit_plan` waits in the gate
 * for `review_plan`'s answer. Claude Code's `SendMessage` frames drive the same deciders
 * (`protocolFrame`). The `teams` feature.
 */
export function protocolsMechanism(options: ProtocolsOptions = {}): Mechanism {
  let watcher: ShutdownWatcher | undefined;
  /** Watch the lead's pending shutdown requests (live only; each once). */
  const watchPending = (context: StageContext): Promise<never[]> => {
    const { watch } = options;
    const { session, agent } = context;
    if (watch === undefined || !isLead(context.view(), session, agent)) return Promise.resolve([]);
    for (const request of unsettledShutdowns(context.view(), session, agent)) {
      watcher ??= new ShutdownWatcher({ ...watch, view: context.view });
      // Beside the lead's loop, never awaited by it: a failure leaves the request pending.
      watcher.watch(session, request.id).catch(() => {});
    }
    return Promise.resolve([]);
  };
  /**
   * The lead's session ends: each live teammate is asked to shut down (`endShutdowns`, decided
   * under the log's lock live, from the replayed state in replay) and, live, waited for until it
   * answered and stopped or its request expired (each at most the timeout; the session's end
   * waits no longer once `context.signal` aborts).
   */
  const shutDownTeam = async (context: StageContext): Promise<never[]> => {
    const { session, agent } = context;
    if (!isLead(context.view(), session, agent)) return [];
    const { watch } = options;
    if (watch === undefined) {
      await context.record(endShutdowns(context.view(), session, agent));
      return [];
    }
    await watch.log().appendDecided(
      () =>
        endShutdowns(context.view(), session, agent).map((event) =>
          ({ ...event, session, agent }) as NewEvent
        ),
      { sync: true },
    );
    const requests = unsettledShutdowns(context.view(), session, agent);
    if (requests.length === 0) return [];
    watcher ??= new ShutdownWatcher({ ...watch, view: context.view });
    const active = watcher;
    const settled = Promise.allSettled(requests.map((r) => active.watch(session, r.id)));
    const aborted = new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      context.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await Promise.race([settled, aborted]);
    return [];
  };
  return {
    name: "protocols",
    feature: TEAMS_FEATURE,
    projection: protocolsProjection,
    tools: toolsOf,
    // SendMessage's protocol frames drive the same state machine as the tools.
    filterTools: (scope, pool) =>
      teamsOn(scope.state, scope.session) && pool.some((tool) => tool.name === SEND_MESSAGE)
        ? framedPool(pool)
        : pool,
    toolFacts: ALL_TOOLS,
    // The lead's process appends an expiry from outside any loop: replay feeds it.
    fedTypes: ["protocol.expired"],
    render: renderProtocolEvent,
    report: reportProtocols,
    // PreToolUse hooks see the call first; the gate refuses before a rule or a person is asked.
    after: ["hooks"],
    before: ["permissions"],
    wake: {
      pending: () => [],
      // `rein -p` ends once the lead's shutdown requests are answered or expired.
      awaited: (scope) =>
        options.watch === undefined
          ? []
          : unsettledShutdowns(scope.state, scope.session, scope.agent).map((request) => ({
            kind: "teammate shutdown",
            label: `${request.to} (${request.id})`,
          })),
    },
    stages: {
      gateCall: planGate,
      afterCall: watchPending,
      resumed: watchPending,
      // The roster and the pending requests, put back as todos are.
      afterCompact: (context) =>
        Promise.resolve([
          ...teamReminder(context.view(), context.session, context.agent),
          ...reinjectPending(context),
        ]),
      sessionEnding: shutDownTeam,
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
    close() {
      watcher?.close();
      return Promise.resolve();
    },
  };
}
