import type {
  CompactionCompleted,
  CompactionTrigger,
  ConversationMessage,
  EnvelopeOf,
  EventPayloads,
  EventType,
  ModelFailed,
  ModelPurpose,
  ReinEvent,
  SessionEnded,
} from "../../events/event_types.ts";
import type { MessagesRequest, ModelError, ModelReply } from "../effects/model_client.ts";
import type { PendingCall } from "../state/conversation.ts";
import type { State } from "../state/state.ts";
import type { ToolRun } from "../tools/executor.ts";
import type { TurnResult } from "../tools/sibling_agent.ts";

/** What a stage handler sees: whose round it is and the state now. */
export interface StageContext {
  session: string;
  agent: string;
  /** The projected state, caught up to the last event appended. */
  view(): State;
  /** Aborted when the user cancels the turn. */
  signal: AbortSignal;
  /**
   * Read the world for a decision (run a hook, ask the person): live, `read()`; in replay, the
   * data of the recorded event of `type` that `matches`, never read again. The caller records it.
   */
  observe<T extends EventType>(
    type: T,
    matches: (data: EventPayloads[T]) => boolean,
    read: () => Promise<EventPayloads[T]>,
  ): Promise<EventPayloads[T]>;
  /** As `observe`, for a reading that only sometimes makes an event (undefined: it did not). */
  observeMaybe<T extends EventType>(
    type: T,
    matches: (data: EventPayloads[T]) => boolean,
    read: () => Promise<EventPayloads[T] | undefined>,
  ): Promise<EventPayloads[T] | undefined>;
  /**
   * Wait for another agent's event of `type` that `matches` (a plan approval, a shutdown answer)
   * appended after the last event this stage recorded (or, before it recorded any, after the
   * stage began): live, over the store's `waitForAppend` (one already in the log counts); in
   * replay, the recorded event is served from the log once replay has reproduced it. `matches`
   * should single the event out (a request id). Rejects with `signal.reason` when `signal` aborts.
   */
  waitFor<T extends EventType>(
    type: T,
    matches: (event: EnvelopeOf<T>) => boolean,
    signal: AbortSignal,
  ): Promise<EnvelopeOf<T>>;
  /**
   * Append events now and flush them, before the handler goes on (hooks about to run: if the
   * process dies while they run, the log says so).
   */
  record(events: ReinEvent[]): Promise<void>;
  /**
   * Ask the model outside the agent's rounds (a compaction's summary): the request `build`
   * assembles from the state is recorded as `model.requested` with `purpose`, retried as a round
   * is, and its answer recorded with the same purpose; replay serves it from the log.
   */
  askModel(
    purpose: ModelPurpose,
    build: () => MessagesRequest,
  ): Promise<ModelReply | ModelError | "cancelled">;
  /** The composed stages, for a mechanism that runs others' handlers (compaction's hooks). */
  stages: Stages;
  /** The request the agent's next round would send now, assembled from the state. */
  nextRequest(): MessagesRequest;
}

/** A compaction asked for (by `/compact`, the model's tool, or a too-long prompt). */
export interface CompactRequest {
  trigger: CompactionTrigger;
  /** What the summary should focus on (`/compact FOCUS`). */
  focus?: string;
}

/** How a compaction asked for ended: done, or why not (nothing to compact, a hook, the model). */
export type CompactOutcome =
  | { compacted: true; completed: CompactionCompleted }
  | {
    compacted: false;
    reason: string;
    /** No compaction applies to this session (recorded before rein compacted). */
    unavailable?: true;
  };

/** What PreCompact handlers decided: events to record, more focus, or a reason not to compact. */
export interface BeforeCompact {
  events: ReinEvent[];
  /** Instructions added to the summary request (a PreCompact hook's output). */
  instructions: string[];
  block?: string;
}

/**
 * A gate's verdict on a call: run it, or close it without running with a reason the model reads
 * (`denied` by a rule, mode or person; `blocked` by a hook). `events` (a decision, a hook run) are
 * recorded before the call's intent or closing result.
 */
export type GateDecision =
  /** `input`: the call's input as a hook rewrote it (`updatedInput`), which the tool gets. */
  | { run: true; events?: ReinEvent[]; input?: unknown }
  | { run: false; outcome: "denied" | "blocked"; reason: string; events?: ReinEvent[] };

/** What the gate would ask a person about a call: why, and the rule "always" would save. */
export interface PermissionRequest {
  asked: string;
  suggestion: string;
}

/** A decision in the person's place (a PermissionRequest hook's), with who made it; or none. */
export interface PermissionRequestAnswer {
  decision?: {
    behavior: "allow" | "deny";
    message: string;
    command: string;
    /** Allowed with this input instead (rein's field names), to judge again before it runs. */
    input?: Record<string, unknown>;
    /** Permission updates to apply as if the person had chosen them (Claude Code's shape). */
    updates?: readonly PermissionUpdateAnswer[];
    /** Denied, and the turn stops too. */
    interrupt?: boolean;
  };
}

/** A permission update a PermissionRequest answer carries: rules to add, or a mode to set. */
export type PermissionUpdateAnswer =
  | { type: "addRules"; rules: string[]; behavior: "allow" | "deny" | "ask"; destination: string }
  | { type: "setMode"; mode: string; destination: string };

/** What the prompt stage decided: events to record first, and a reason to refuse the prompt. */
export interface PromptStage {
  events: ReinEvent[];
  refuse?: string;
}

/**
 * The fixed points of a round where mechanisms attach (design.md §10), in the order the loop
 * reaches them. Every handler is optional; events a handler returns are stamped with the session
 * and agent and appended by the loop, so in replay the same handler produces the same events and
 * `--verify` compares them.
 */
export interface StageHandlers {
  /**
   * A prompt was submitted: events recorded just before it (hook runs, memory notes), and
   * whether to refuse it (a UserPromptSubmit hook that blocks): then no turn runs.
   */
  beforePrompt?(context: StageContext, prompt: string, opening?: "resume"): Promise<PromptStage>;
  /** Before each model call: injected input, reminders, compaction, recorded before the request. */
  beforeModel?(context: StageContext): Promise<ReinEvent[]>;
  /**
   * The model answered without tool calls: events to record, and whether to go on with another
   * round (a Stop hook that says "not done yet" records input and continues). `continued` counts
   * how often this turn was continued so already, so a handler can stop insisting (Claude Code's
   * `stop_hook_active`).
   */
  afterModel?(
    context: StageContext,
    reply: ModelReply,
    continued: number,
  ): Promise<{ events: ReinEvent[]; continueTurn: boolean }>;
  /**
   * A model call failed and is about to be retried: events recorded before the next attempt (a
   * fallback model for an overloaded one), whose request is assembled from the state after them.
   */
  modelFailed?(context: StageContext, failure: ModelFailed): Promise<ReinEvent[]>;
  /** Before a call's intent is recorded: let it run, or close it without running. */
  gateCall?(context: StageContext, call: PendingCall): Promise<GateDecision>;
  /** After a call's result is recorded: events that follow it (post-call hooks). */
  afterCall?(context: StageContext, call: PendingCall, run: ToolRun): Promise<ReinEvent[]>;
  /**
   * A round's calls have run: a reason to end the turn now, without asking the model again (a
   * hook said `continue: false`), or undefined. The first handler that gives one wins.
   */
  stopAfterCalls?(
    context: StageContext,
    calls: readonly PendingCall[],
  ): Promise<string | undefined>;
  /**
   * The gate is about to ask a person about a call (PermissionRequest hooks): a decision in the
   * person's place, or none. The first handler that decides wins.
   */
  permissionRequest?(
    context: StageContext,
    call: PendingCall,
    request: PermissionRequest,
  ): Promise<PermissionRequestAnswer>;
  /** The turn ended: events after its end (memory extraction, idle behaviour). */
  turnEnded?(context: StageContext, result: TurnResult): Promise<ReinEvent[]>;
  /**
   * The agent is reopened after its process ended: events recorded with its `session.resumed`,
   * in the same append, about what that process left running (a background job, lost with it).
   * Decided on the state before the resume.
   */
  resumed?(context: StageContext): Promise<ReinEvent[]>;
  /** The session is ending (the person left, cleared it, or a headless run finished). */
  sessionEnding?(context: StageContext, reason: SessionEnded["reason"]): Promise<ReinEvent[]>;
  /** Compact the agent's conversation now (the compaction mechanism; the first handler wins). */
  compact?(context: StageContext, request: CompactRequest): Promise<CompactOutcome>;
  /** A compaction is about to ask for its summary (PreCompact hooks). */
  beforeCompact?(context: StageContext, request: CompactRequest): Promise<BeforeCompact>;
  /**
   * A compaction was recorded: events that follow it (PostCompact and SessionStart "compact"
   * hooks, what is re-injected: the todo list, the skills loaded). `before`: the messages it
   * replaced.
   */
  afterCompact?(
    context: StageContext,
    completed: CompactionCompleted,
    before: readonly ConversationMessage[],
  ): Promise<ReinEvent[]>;
}

/** The stages as the loop calls them: every mechanism's handlers, composed in order. */
export interface Stages {
  /** `opening`: the prompt comes with the resume of a session (`--resume ID -p "…"`). */
  beforePrompt(context: StageContext, prompt: string, opening?: "resume"): Promise<PromptStage>;
  beforeModel(context: StageContext): Promise<ReinEvent[]>;
  afterModel(
    context: StageContext,
    reply: ModelReply,
    continued: number,
  ): Promise<{ events: ReinEvent[]; continueTurn: boolean }>;
  modelFailed(context: StageContext, failure: ModelFailed): Promise<ReinEvent[]>;
  gateCall(context: StageContext, call: PendingCall): Promise<GateDecision>;
  afterCall(context: StageContext, call: PendingCall, run: ToolRun): Promise<ReinEvent[]>;
  stopAfterCalls(context: StageContext, calls: readonly PendingCall[]): Promise<string | undefined>;
  permissionRequest(
    context: StageContext,
    call: PendingCall,
    request: PermissionRequest,
  ): Promise<PermissionRequestAnswer>;
  turnEnded(context: StageContext, result: TurnResult): Promise<ReinEvent[]>;
  resumed(context: StageContext): Promise<ReinEvent[]>;
  sessionEnding(context: StageContext, reason: SessionEnded["reason"]): Promise<ReinEvent[]>;
  compact(context: StageContext, request: CompactRequest): Promise<CompactOutcome>;
  beforeCompact(context: StageContext, request: CompactRequest): Promise<BeforeCompact>;
  afterCompact(
    context: StageContext,
    completed: CompactionCompleted,
    before: readonly ConversationMessage[],
  ): Promise<ReinEvent[]>;
}

/**
 * Compose handlers in the order given (the harness orders them with `orderStages`, by the
 * mechanisms' declared `after` and `before`). Event lists are concatenated; `afterModel` continues the turn if any
 * handler says so; `gateCall` stops at the first handler that refuses (the events of the handlers
 * that let the call through are kept).
 */
export function composeStages(handlers: readonly StageHandlers[]): Stages {
  const each = async <A extends unknown[]>(
    pick: (h: StageHandlers) => ((...args: A) => Promise<ReinEvent[]>) | undefined,
    ...args: A
  ): Promise<ReinEvent[]> => {
    const events: ReinEvent[] = [];
    for (const handler of handlers) {
      const stage = pick(handler);
      if (stage) events.push(...await stage.apply(handler, args));
    }
    return events;
  };
  return {
    async beforePrompt(context, prompt, opening) {
      const events: ReinEvent[] = [];
      for (const handler of handlers) {
        if (!handler.beforePrompt) continue;
        const stage = await handler.beforePrompt(context, prompt, opening);
        events.push(...stage.events);
        if (stage.refuse !== undefined) return { events, refuse: stage.refuse };
      }
      return { events };
    },
    beforeModel: (context) => each((h) => h.beforeModel, context),
    modelFailed: (context, failure) => each((h) => h.modelFailed, context, failure),
    afterCall: (context, call, run) => each((h) => h.afterCall, context, call, run),
    async stopAfterCalls(context, calls) {
      for (const handler of handlers) {
        const reason = await handler.stopAfterCalls?.(context, calls);
        if (reason !== undefined) return reason;
      }
      return undefined;
    },
    async permissionRequest(context, call, request) {
      for (const handler of handlers) {
        if (!handler.permissionRequest) continue;
        const answer = await handler.permissionRequest(context, call, request);
        if (answer.decision !== undefined) return answer;
      }
      return {};
    },
    turnEnded: (context, result) => each((h) => h.turnEnded, context, result),
    resumed: (context) => each((h) => h.resumed, context),
    sessionEnding: (context, reason) => each((h) => h.sessionEnding, context, reason),
    afterCompact: (context, completed, before) =>
      each((h) => h.afterCompact, context, completed, before),
    compact(context, request) {
      const handler = handlers.find((h) => h.compact !== undefined);
      return handler?.compact ? handler.compact(context, request) : Promise.resolve({
        compacted: false,
        reason: "no mechanism compacts conversations",
        unavailable: true,
      });
    },
    async beforeCompact(context, request) {
      const decided: BeforeCompact = { events: [], instructions: [] };
      for (const handler of handlers) {
        if (!handler.beforeCompact) continue;
        const stage = await handler.beforeCompact(context, request);
        decided.events.push(...stage.events);
        decided.instructions.push(...stage.instructions);
        if (stage.block !== undefined) return { ...decided, block: stage.block };
      }
      return decided;
    },
    async afterModel(context, reply, continued) {
      const events: ReinEvent[] = [];
      let continueTurn = false;
      for (const handler of handlers) {
        if (!handler.afterModel) continue;
        const outcome = await handler.afterModel(context, reply, continued);
        events.push(...outcome.events);
        continueTurn ||= outcome.continueTurn;
      }
      return { events, continueTurn };
    },
    async gateCall(context, call) {
      const events: ReinEvent[] = [];
      let gated = call;
      for (const handler of handlers) {
        if (!handler.gateCall) continue;
        const decision = await handler.gateCall(context, gated);
        events.push(...(decision.events ?? []));
        if (!decision.run) return { ...decision, events };
        if (decision.input !== undefined) gated = { ...gated, input: decision.input };
      }
      return gated === call ? { run: true, events } : { run: true, events, input: gated.input };
    },
  };
}
