import type { CronRead, ReinEvent } from "../../events/event_types.ts";
import type { GateDecision, StageContext } from "../loop/stages.ts";
import type { Mechanism } from "../mechanism.ts";
import { renderCronEvent } from "./cron_render.ts";
import type { PendingCall } from "../state/conversation.ts";
import { sliceOf } from "../state/state.ts";
import type { AnyTool } from "../tools/tool.ts";
import { createCancelCronTool } from "./cancel_cron.ts";
import { cronProjection, sessionCronIn } from "./cron_projection.ts";
import { CRON_TOOLS, visibleJobs } from "./cron_read.ts";
import { cronTableProjection } from "./cron_table_projection.ts";
import { scheduledText } from "./scheduled_text.ts";
import { cronWake, firingsWaiting } from "./cron_wake.ts";
import { createListCronsTool } from "./list_crons.ts";
import { createScheduleCronTool } from "./schedule_cron.ts";

/** What the cron mechanism reads of the world, live (replay serves what it recorded). */
export interface CronMechanismOptions {
  /** The wall clock (rein's, which tests may fake). */
  clock?: () => Date;
  /** The IANA time zone cron expressions are read in: the machine's. */
  timeZone?: () => string;
}

/**
 * Cron (s14): `schedule_cron`, `list_crons` and `cancel_cron` (Claude Code's CronCreate, CronList
 * and CronDelete), the workspace's jobs as a fold of the log (its workspace-wide slice, the
 * cron table in `state.catalog.cron`), and the firings
 * of a session as input for its agent. Each cron tool call first records what it decides on
 * (`cron.read`: the clock, the time zone, the jobs the session sees), so the tools are deciders
 * that replay runs again. Firings (`cron.fired`) come from outside the loop (the scheduler of a
 * REPL or of `rein daemon`, see `CronScheduler`) and are fed to replay. A firing that comes while
 * its agent is idle is taken up as a prompt of its own, marked by `cron.delivered` just before
 * it; one that comes during a turn is an arrival, put before the model with the turn's next
 * request (`arrival.injected`). Sessions recorded without the `cron` feature (by a rein before
 * cron) get no cron tools, firings or readings, so their requests replay unchanged.
 */
export function cronMechanism(options: CronMechanismOptions = {}): Mechanism {
  const clock = options.clock ?? (() => new Date());
  const timeZone = options.timeZone ?? localTimeZone;
  const tools: AnyTool[] = [
    createScheduleCronTool(),
    createListCronsTool(),
    createCancelCronTool(),
  ];
  return {
    name: "cron",
    feature: "cron",
    catalog: cronTableProjection,
    render: renderCronEvent,
    // A prompt that takes up a firing is marked even if a UserPromptSubmit hook refuses it.
    before: ["hooks"],
    projection: cronProjection,
    tools: () => tools,
    fedTypes: ["cron.fired"],
    arrivals: firingsWaiting,
    wake: cronWake(clock),
    stages: {
      beforePrompt: (context, prompt) =>
        Promise.resolve({ events: takenAsPrompt(context, prompt) }),
      gateCall: (context, call) => readBeforeCall(context, call, clock, timeZone),
    },
  };
}

/** The machine's time zone (`UTC` when it cannot be told). */
function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * Before a cron tool's intent: record what it will decide on (live: read now; replay: served from
 * the log), and let it run.
 */
async function readBeforeCall(
  context: StageContext,
  call: PendingCall,
  clock: () => Date,
  timeZone: () => string,
): Promise<GateDecision> {
  if (!CRON_TOOLS.has(call.name)) return { run: true };
  const read: CronRead = await context.observe(
    "cron.read",
    (data) => data.callId === call.id,
    () =>
      Promise.resolve({
        callId: call.id,
        now: clock().toISOString(),
        timeZone: timeZone(),
        jobs: visibleJobs(context.view(), context.session),
      }),
  );
  return { run: true, events: [{ type: "cron.read", data: read }] };
}

/**
 * A prompt that is the text of a firing waiting for this agent (the REPL or `rein daemon` runs a
 * firing that came while the agent was idle as a prompt of its own): mark the earliest such firing
 * taken, so it does not also join the prompt's first request. Pure over the state.
 */
function takenAsPrompt(context: StageContext, prompt: string): ReinEvent[] {
  const pending = sessionCronIn(sliceOf(context.view(), cronProjection), context.session).pending;
  const firing = pending.find((f) => f.agent === context.agent && scheduledText(f) === prompt);
  if (firing === undefined) return [];
  return [{ type: "cron.delivered", data: { id: firing.id, minute: firing.minute } }];
}
