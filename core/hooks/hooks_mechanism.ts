import { isRecord } from "../settings/is_record.ts";
import type { HookRan, ReinEvent } from "../../events/event_types.ts";
import type {
  GateDecision,
  PermissionRequestAnswer,
  PromptStage,
  StageContext,
} from "../loop/stages.ts";
import type { Mechanism } from "../mechanism.ts";
import { renderHookEvent } from "./hooks_render.ts";
import { recordedSettings } from "../settings/recorded_settings.ts";
import type { PendingCall } from "../state/conversation.ts";
import { lastAssistantText } from "../state/conversation.ts";
import { agentOf } from "../state/sessions.ts";
import { sliceOf } from "../state/state.ts";
import type { ToolRun } from "../tools/executor.ts";
import { fromClaudeInput } from "./claude_tool_names.ts";
import {
  buildHookInput,
  type CompactTrigger,
  type HookEventData,
  type HookEventName,
} from "./hook_input.ts";
import { combineVerdicts, type HookVerdict, interpretHookRun } from "./hook_verdict.ts";
import { hooksProjection, runKey } from "./hooks_projection.ts";
import { personalCommands, runHook } from "./tool_event_hooks.ts";
import { hookMatchersReady, selectHooks } from "./run_hooks.ts";
import type { HooksOptions } from "./hooks_options.ts";
import { claudeToolResponse, type ToolResponseFacts } from "./claude_tool_response.ts";
import {
  hookAgentTranscriptPath,
  hookTranscriptPath,
  type TranscriptWriter,
} from "./claude_transcript.ts";
import { hasFeature } from "../settings/session_features.ts";
import { hookSessionFacts, sliceMaybe, stopFacts } from "./hook_session_facts.ts";
import { todosProjection } from "../todos/todos_projection.ts";
import type { State } from "../state/state.ts";

export type { HooksOptions } from "./hooks_options.ts";

/** The hooks' options and, live, the writer of the Claude Code transcripts hooks read. */
interface HooksWiring extends HooksOptions {
  transcripts?: TranscriptWriter;
}

/**
 * The session feature under which hooks do what Claude Code's do beyond rein's first hooks: a tool
 * hook's `continue: false` ends the turn once the round's calls have run, a Stop hook's
 * `additionalContext` sends the agent on, PermissionRequest and SubagentStart hooks run. Sessions
 * recorded before it replay as they ran, without these.
 */
export const CLAUDE_HOOK_EVENTS = "claude_hook_events";

/** How many times a turn may be continued because Stop hooks said "not done yet". */
export const MAX_STOP_CONTINUATIONS = 5;

/**
 * Claude Code's command hooks (s04) at the loop's fixed points: UserPromptSubmit (and
 * SessionStart, before a session's first prompt) before a prompt, PreToolUse at the gate of a
 * call, PostToolUse / PostToolUseFailure after it, Stop (SubagentStop for a subagent) when the model
 * answers without calls.
 * Which hooks run is a pure function of the recorded settings; each run is read through
 * `observe` (replay serves the recorded run, never runs the command) and recorded as
 * `hook.ran`, after `hook.started` is flushed: a crash while a PreToolUse hook runs leaves its
 * call unrun. What a run decided is re-derived from its record, so `--verify` checks it.
 */
export function hooksMechanism(hooks: HooksOptions, transcripts?: TranscriptWriter): Mechanism {
  const options: HooksWiring = transcripts === undefined ? hooks : { ...hooks, transcripts };
  return {
    name: "hooks",
    render: renderHookEvent,
    projection: hooksProjection,
    stages: {
      beforePrompt: (context, prompt, opening) => beforePrompt(context, prompt, opening, options),
      gateCall: (context, call) => gate(context, call, options),
      stopAfterCalls: (context, calls) => Promise.resolve(stopAfterCalls(context, calls)),
      permissionRequest: (context, call, request) =>
        permissionRequest(context, call, request.suggestion, options),
      afterCall: (context, call, run) => afterCall(context, call, run, options),
      // An answer cut off at the output limit is continued by recovery, not stopped.
      afterModel: (context, reply, continued) =>
        reply.stopReason === "max_tokens"
          ? Promise.resolve({ events: [], continueTurn: false })
          : onStop(context, continued, options),
      sessionEnding: async (context, reason) => {
        await runSelected(context, { event: "SessionEnd", reason }, undefined, options);
        return [];
      },
      beforeCompact: async (context, request) => {
        const trigger: CompactTrigger = request.trigger === "manual" ? "manual" : "auto";
        const data = {
          event: "PreCompact" as const,
          trigger,
          customInstructions: request.focus ?? "",
        };
        const ran = await runSelected(context, data, trigger, options);
        const verdict = ran?.verdict;
        return {
          events: [],
          instructions: verdict?.additionalContext ?? [],
          ...(verdict?.block ? { block: verdict.block.reason } : {}),
        };
      },
      afterCompact: async (context, completed) => {
        const trigger: CompactTrigger = completed.trigger === "manual" ? "manual" : "auto";
        const post = { event: "PostCompact" as const, trigger, summary: completed.summary };
        await runSelected(context, post, trigger, options);
        const started = await runSelected(
          context,
          { event: "SessionStart", source: "compact" },
          "compact",
          options,
        );
        return contextEvents("SessionStart", started?.verdict.additionalContext ?? []);
      },
    },
  };
}

interface Ran {
  runs: HookRan[];
  verdict: HookVerdict;
  /** The run's events, when the caller records them (`recordNow: false`). */
  events: ReinEvent[];
}

/**
 * Run the hooks `data` selects (none: undefined): `hook.started` flushed first, each run observed
 * and recorded as it lands in the log, then the combined verdict.
 */
async function runSelected(
  context: StageContext,
  data: HookEventData,
  matchValue: string | undefined,
  options: HooksWiring,
  callId?: string,
  recordNow = true,
): Promise<Ran | undefined> {
  const view = context.view().sessions.byId[context.session];
  if (!view?.settings) return undefined;
  const recorded = recordedSettings(view.settings);
  await hookMatchersReady(recorded.settings.hooks);
  const selected = selectHooks(recorded.settings.hooks, data.event, matchValue);
  if (selected.length === 0) return undefined;
  const trusted = personalCommands(view.settings, recorded);
  const sandbox = await options.sandbox;
  const hookEvent = data.event;
  const ids = callId === undefined ? {} : { callId };
  const started: ReinEvent = {
    type: "hook.started",
    data: { hookEvent, ...ids, commands: selected.map((hook) => hook.command) },
  };
  if (recordNow) await context.record([started]);
  const input = buildHookInput({
    sessionId: context.session,
    transcriptPath: hookTranscriptPath(options, context.session),
    cwd: view.workspace,
    permissionMode: recorded.mode,
    // Before a prompt is recorded, its hooks are told the id it will have.
    ...hookSessionFacts(
      context.view(),
      context.session,
      data.event === "UserPromptSubmit" ||
        (data.event === "SessionStart" && data.source !== "compact"),
    ),
  }, data);
  const runs = await Promise.all(selected.map((hook) =>
    context.observe(
      "hook.ran",
      (ran) => ran.hookEvent === hookEvent && ran.callId === callId && ran.command === hook.command,
      // Live only (replay serves the run): the transcript is brought up to date first.
      async () => {
        await options.transcripts?.(context.view(), context.session);
        return runHook(hook, { input, callId, trusted, sandbox, signal: context.signal }, options);
      },
    )
  ));
  const ran: ReinEvent[] = runs.map((data) => ({ type: "hook.ran", data }));
  if (recordNow) await context.record(ran);
  return { runs, verdict: verdictOf(runs), events: recordNow ? [] : [started, ...ran] };
}

/** The combined verdict of recorded runs, as the run decided it. Pure. */
export function verdictOf(runs: readonly HookRan[]): HookVerdict {
  return combineVerdicts(
    runs.map((run) => interpretHookRun(run.hookEvent as HookEventName, run)),
  );
}

async function beforePrompt(
  context: StageContext,
  prompt: string,
  opening: "resume" | undefined,
  options: HooksWiring,
): Promise<PromptStage> {
  const events: ReinEvent[] = [];
  const view = context.view().sessions.byId[context.session]!;
  const agent = agentOf(view, context.agent);
  // A subagent's prompt is its parent's call, not the person's: Claude Code runs neither
  // SessionStart nor UserPromptSubmit for it, but SubagentStart, whose context the subagent gets.
  if (agent.spawn !== null) {
    if (agent.rounds > 0 || !hasFeature(context.view(), context.session, CLAUDE_HOOK_EVENTS)) {
      return { events };
    }
    const data: HookEventData = {
      event: "SubagentStart",
      agentId: context.agent,
      agentType: agent.spawn.type,
      ...(agent.spawn.teammate === undefined ? {} : { teammateName: context.agent }),
    };
    const ran = await runSelected(
      context,
      data,
      agent.spawn.type,
      options,
      undefined,
      false,
    );
    events.push(...ran?.events ?? []);
    events.push(...contextEvents("SubagentStart", ran?.verdict.additionalContext ?? []));
    return { events };
  }
  // SessionStart before a session's first prompt (a fork's too) and with a resume's prompt.
  const source = opening === "resume"
    ? "resume"
    : view.firstPrompt === null && agent.rounds === 0
    ? view.forkedFrom === null ? "startup" : "fork"
    : undefined;
  if (source !== undefined) {
    // Prompt-time hooks are recorded with the prompt (after a resume's session.resumed), not
    // before it: a crash before the prompt is recorded leaves no trace of them to account for.
    const started = await runSelected(
      context,
      { event: "SessionStart", source },
      source,
      options,
      undefined,
      false,
    );
    events.push(...started?.events ?? []);
    events.push(...contextEvents("SessionStart", started?.verdict.additionalContext ?? []));
  }
  // A typed `/name args` reaches the hooks as typed, as in Claude Code; the model gets its prompt.
  const typed = sliceOf(context.view(), hooksProjection)[context.session]?.typed?.[context.agent];
  const submitted = typed !== undefined && (typed.expansion ?? prompt) === prompt
    ? typed.text
    : prompt;
  const ran = await runSelected(
    context,
    { event: "UserPromptSubmit", prompt: submitted },
    undefined,
    options,
    undefined,
    false,
  );
  if (ran === undefined) return { events };
  events.push(...ran.events);
  const { verdict } = ran;
  const refuse = verdict.block?.reason ?? verdict.stop?.reason;
  if (refuse !== undefined) {
    return { events, refuse: refuse || "a UserPromptSubmit hook stopped it" };
  }
  events.push(...contextEvents("UserPromptSubmit", verdict.additionalContext));
  return { events };
}

async function gate(
  context: StageContext,
  call: PendingCall,
  options: HooksWiring,
): Promise<GateDecision> {
  const hooks = sliceOf(context.view(), hooksProjection)[context.session];
  if (hooks?.running[runKey("PreToolUse", call.id)] !== undefined) {
    return {
      run: false,
      outcome: "blocked",
      reason: "A PreToolUse hook was running when rein stopped, so its outcome is unknown and " +
        "the call was not run. Make the call again if it is still needed",
    };
  }
  const input = isRecord(call.input) ? call.input : {};
  const ran = await runSelected(
    context,
    { event: "PreToolUse", tool: call.name, input, toolUseId: call.id },
    call.name,
    options,
    call.id,
  );
  if (ran === undefined) return { run: true };
  const { verdict } = ran;
  const events = contextEvents("PreToolUse", verdict.additionalContext);
  if (verdict.permission?.decision === "deny") {
    return { run: false, outcome: "blocked", reason: verdict.permission.reason, events };
  }
  if (verdict.stop !== undefined) {
    return {
      run: false,
      outcome: "blocked",
      reason: verdict.stop.reason || "A PreToolUse hook stopped the agent",
      events,
    };
  }
  if (verdict.updatedInput !== undefined) {
    return {
      run: true,
      events,
      input: fromClaudeInput(call.name, verdict.updatedInput, options.workspace),
    };
  }
  return { run: true, events };
}

/**
 * The `stopReason` of a PreToolUse, PostToolUse or PostToolUseFailure hook of `calls` that said
 * `continue: false`, from their recorded runs, in a session with {@linkcode CLAUDE_HOOK_EVENTS}. Pure.
 */
function stopAfterCalls(context: StageContext, calls: readonly PendingCall[]): string | undefined {
  const state = context.view();
  if (!hasFeature(state, context.session, CLAUDE_HOOK_EVENTS)) return undefined;
  const byCall = sliceOf(state, hooksProjection)[context.session]?.byCall ?? {};
  const runs = calls.flatMap((call) => byCall[call.id] ?? []);
  const verdict = verdictOf(runs);
  const { stop } = verdict;
  if (stop === undefined && verdict.interrupt === true) {
    // A PermissionRequest hook's deny with `interrupt: true` stops the turn, as Esc would.
    const said = runs.filter((run) => run.hookEvent === "PermissionRequest");
    const reason = verdictOf(said).permission?.reason ?? "";
    return `Interrupted by a PermissionRequest hook${reason ? `: ${reason}` : ""}`;
  }
  return stop === undefined
    ? undefined
    : `Stopped by a hook${stop.reason ? `: ${stop.reason}` : ""}`;
}

/** PermissionRequest hooks, when the gate is about to ask a person: their decision, if any. */
async function permissionRequest(
  context: StageContext,
  call: PendingCall,
  suggestion: string,
  options: HooksWiring,
): Promise<PermissionRequestAnswer> {
  if (!hasFeature(context.view(), context.session, CLAUDE_HOOK_EVENTS)) return {};
  const input = isRecord(call.input) ? call.input : {};
  const ran = await runSelected(
    context,
    { event: "PermissionRequest", tool: call.name, input, toolUseId: call.id, suggestion },
    call.name,
    options,
    call.id,
  );
  const verdict = ran?.verdict;
  const permission = verdict?.permission;
  if (verdict === undefined || permission === undefined || permission.decision === "ask") {
    return {};
  }
  const command = ran?.runs.map((run) => run.command).join(" · ") ?? "";
  const { updatedInput, updatedPermissions, interrupt } = verdict;
  if (permission.decision === "deny") {
    return {
      decision: {
        behavior: "deny",
        message: permission.reason,
        command,
        ...(interrupt === true ? { interrupt: true } : {}),
      },
    };
  }
  return {
    decision: {
      behavior: "allow",
      message: permission.reason,
      command,
      ...(updatedInput === undefined
        ? {}
        : { input: fromClaudeInput(call.name, updatedInput, options.workspace) }),
      ...(updatedPermissions === undefined ? {} : { updates: updatedPermissions }),
    },
  };
}

async function afterCall(
  context: StageContext,
  call: PendingCall,
  run: ToolRun,
  options: HooksWiring,
): Promise<ReinEvent[]> {
  const input = isRecord(call.input) ? call.input : {};
  const { completed } = run;
  const data: HookEventData = completed.isError
    ? {
      event: "PostToolUseFailure",
      tool: call.name,
      input,
      toolUseId: call.id,
      error: completed.content,
      durationMs: completed.durationMs,
      ...(completed.outcome === "cancelled" ? { isInterrupt: true } : {}),
    }
    : {
      event: "PostToolUse",
      tool: call.name,
      input,
      toolUseId: call.id,
      response: claudeToolResponse(
        call.name,
        input,
        completed,
        options.workspace,
        responseFacts(context.view(), context.session, context.agent, call),
      ),
      durationMs: completed.durationMs,
    };
  const ran = await runSelected(context, data, call.name, options, call.id);
  if (ran === undefined) return [];
  const { verdict } = ran;
  const texts = [
    ...(verdict.block ? [`${data.event} hook feedback: ${verdict.block.reason}`] : []),
    ...verdict.additionalContext,
  ];
  return contextEvents(data.event, texts);
}

async function onStop(
  context: StageContext,
  continued: number,
  options: HooksWiring,
): Promise<{ events: ReinEvent[]; continueTurn: boolean }> {
  const state = context.view();
  const agent = agentOf(state.sessions.byId[context.session]!, context.agent);
  const event = agent.spawn === null ? "Stop" : "SubagentStop";
  const ran = await runSelected(
    context,
    {
      event,
      stopHookActive: continued > 0,
      lastAssistantMessage: lastAssistantText(agent),
      ...(agent.spawn === null ? stopFacts(state, context.session) : {
        agentId: context.agent,
        agentType: agent.spawn.type,
        agentTranscriptPath: hookAgentTranscriptPath(options, context.session, context.agent),
        ...(agent.spawn.teammate === undefined ? {} : { teammateName: context.agent }),
      }),
    },
    undefined,
    options,
  );
  // A block's reason, or (as Claude Code) additionalContext: the agent goes on with it.
  const contexts = hasFeature(state, context.session, CLAUDE_HOOK_EVENTS)
    ? ran?.verdict.additionalContext.filter((text) => text.trim() !== "") ?? []
    : [];
  const said = [...(ran?.verdict.block ? [ran.verdict.block.reason] : []), ...contexts];
  let reason = said.length > 0 ? said.join("\n") : undefined;
  if (ran?.verdict.stop !== undefined) return { events: [], continueTurn: false };
  let hookEvent: string = event;
  if (reason === undefined && agent.spawn?.teammate !== undefined) {
    // A teammate about to go idle: a TeammateIdle hook's exit 2 keeps it working, its stderr
    // the teammate's next input (Claude Code runs it after the SubagentStop hooks).
    const idle = await runSelected(
      context,
      { event: "TeammateIdle", teammateName: context.agent, teamName: context.session },
      undefined,
      options,
    );
    if (idle?.verdict.stop !== undefined) return { events: [], continueTurn: false };
    reason = idle?.verdict.block?.reason;
    hookEvent = "TeammateIdle";
  }
  if (reason === undefined) return { events: [], continueTurn: false };
  if (continued >= MAX_STOP_CONTINUATIONS) {
    return {
      events: [{
        type: "hook.context",
        data: {
          hookEvent,
          text:
            `A ${hookEvent} hook asked to go on again; rein stopped after ${MAX_STOP_CONTINUATIONS} ` +
            "forced continuations in this turn",
        },
      }],
      continueTurn: false,
    };
  }
  return {
    events: [{
      type: "hook.context",
      data: { hookEvent, text: `${hookEvent} hook feedback: ${reason}` },
    }],
    continueTurn: true,
  };
}

function contextEvents(hookEvent: string, texts: readonly string[]): ReinEvent[] {
  return texts.filter((text) => text.trim() !== "").map((text) => ({
    type: "hook.context",
    data: { hookEvent, text },
  }));
}

/** What a call's `tool_response` needs from the log beyond its input and result. Pure. */
function responseFacts(
  state: State,
  session: string,
  agent: string,
  call: PendingCall,
): ToolResponseFacts {
  if (call.name === "todo_write") {
    const writes = sliceMaybe(state, todosProjection)?.[session]?.[agent]?.writes ?? [];
    return { oldTodos: writes.at(-2)?.todos ?? [] };
  }
  if (call.name === "task") {
    const view = state.sessions.byId[session];
    const [agentId, child] = Object.entries(view?.agents ?? {}).find(([, a]) =>
      a.spawn?.callId === call.id
    ) ?? [];
    if (child === undefined) return {};
    const usage = { ...child.usage };
    const totalTokens = Object.values(usage).reduce((sum, n) => sum + n, 0);
    const totalToolUseCount = child.messages.reduce(
      (sum, message) =>
        sum +
        (message.role === "assistant"
          ? message.content.filter((block) => block.type === "tool_use").length
          : 0),
      0,
    );
    const agentType = child.spawn?.type;
    return {
      subagent: {
        totalTokens,
        totalToolUseCount,
        usage,
        ...(agentId === undefined ? {} : { agentId }),
        ...(agentType === undefined ? {} : { agentType }),
      },
    };
  }
  return {};
}
