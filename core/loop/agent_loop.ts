import type {
  NewEvent,
  RecordedFile,
  ReinEvent,
  SessionEnded,
  SessionStarted,
  SettingsSnapshot,
} from "../../events/event_types.ts";
import { awaitsModel, lastAssistantText } from "../state/conversation.ts";
import type { AgentView, SessionView } from "../state/sessions.ts";
import { closeCall } from "./close_call.ts";
import type { LoopDeps } from "./loop_deps.ts";
import type { MessagesRequest } from "../effects/model_client.ts";
import { type RunOptions, runTurn, type TurnResult } from "./run_turn.ts";
import { TurnContext } from "./turn_context.ts";
import type { SiblingAgent } from "../tools/sibling_agent.ts";
import { callModel, injectArrivals } from "./call_model.ts";
import type { CompactOutcome } from "./stages.ts";

/**
 * How a new session is set up: its id, and every field `session.started` records but the clock
 * reading, which the loop takes itself.
 */
export type SessionSetup = { id: string } & Omit<SessionStarted, "startedAt">;

/**
 * One agent of one session over the shared log: its prompts, turns and resumes. It holds no
 * state of its own: everything it knows is read from the projected state, so a live run, a
 * resumed run and a replay behave the same, and several agents of a session can run at once.
 * CLI modes (REPL, `-p`, replay) are thin adapters over this object.
 */
export class AgentLoop implements SiblingAgent {
  /** The session id. */
  readonly id: string;
  /** The agent's name within the session. */
  readonly agent: string;
  readonly #context: TurnContext;

  private constructor(deps: LoopDeps, id: string, agent: string) {
    this.id = id;
    this.agent = agent;
    this.#context = new TurnContext(deps, id, agent, {
      sibling: (other) => this.sibling(other),
      askModel: (context, signal, side) => callModel(context, signal, undefined, side),
    });
  }

  /** Start a new session with `agent` as its main agent: records `session.started`. */
  static async start(deps: LoopDeps, setup: SessionSetup, agent: string): Promise<AgentLoop> {
    const loop = new AgentLoop(deps, setup.id, agent);
    const { id: _id, ...fields } = setup;
    const startedAt = deps.effects.clock().toISOString();
    await loop.#context.append([loop.#context.event("session.started", { ...fields, startedAt })], {
      sync: false,
    });
    return loop;
  }

  /** Attach to `agent` of a session that exists in the log. Throws if the session does not. */
  static open(deps: LoopDeps, id: string, agent: string): AgentLoop {
    if (!deps.state.sessions.byId[id]) throw new Error(`No session "${id}" in the log`);
    return new AgentLoop(deps, id, agent);
  }

  /** Another agent of the same session, sharing this one's deps. */
  sibling(agent: string): AgentLoop {
    return new AgentLoop(this.#context.deps, this.id, agent);
  }

  /**
   * Record events as this agent's, outside a turn, and flush them: the lifecycle facts a
   * composite tool states about the agent it drives (a subagent's `agent.spawned`). Throws for a
   * type only the loop records.
   */
  async record(events: readonly ReinEvent[]): Promise<void> {
    const context = this.#context;
    await context.append(context.stamp(events), { sync: true });
  }

  /** The projected view of this session. */
  get view(): SessionView {
    return this.#context.view();
  }

  /** This agent's conversation, status and usage. */
  get conversation(): AgentView {
    return this.#context.agentView();
  }

  /** The request this agent's next round would send now (for `/context`). */
  nextRequest(): MessagesRequest {
    return this.#context.nextRequest();
  }

  /** The final text of the agent's last answer. */
  get lastText(): string {
    return lastAssistantText(this.conversation);
  }

  /**
   * True when a turn was cut off, a call never ran, or a request was never answered. A turn the
   * user cancelled is not unfinished work: reopening the session waits for a new prompt.
   */
  get hasUnfinishedWork(): boolean {
    const agent = this.conversation;
    if (agent.openIntents.length > 0 || agent.status === "unfinished") return true;
    if (agent.status === "cancelled") return false;
    return agent.pendingCalls.length > 0 || awaitsModel(agent);
  }

  /**
   * Use `model` (with output limit `maxTokens`) for this agent's rounds from now on: records
   * `model.switched`. Does nothing when it is already the agent's model and limit.
   */
  async switchModel(model: string, maxTokens: number): Promise<void> {
    const { model: from, maxTokens: before } = this.conversation;
    if (from === model && before === maxTokens) return;
    const context = this.#context;
    await context.append([context.event("model.switched", { model, maxTokens, from })], {
      sync: false,
    });
  }

  /**
   * Compact this agent's conversation now (`/compact [focus]`), outside a turn: what the
   * compaction mechanism does and records, or why it did not.
   */
  async compact(focus: string | undefined, signal: AbortSignal): Promise<CompactOutcome> {
    const context = this.#context;
    await context.settle();
    return await context.deps.stages.compact(context.stage(signal), {
      trigger: "manual",
      ...(focus ? { focus } : {}),
    });
  }

  /**
   * End the session for this agent (the person left or cleared it, a headless run finished):
   * the mechanisms' last events (SessionEnd hooks), then `session.ended`, flushed.
   */
  async end(reason: SessionEnded["reason"], signal: AbortSignal): Promise<void> {
    const context = this.#context;
    await context.settle();
    const last = await context.deps.stages.sessionEnding(context.stage(signal), reason);
    await context.append([...context.stamp(last), context.event("session.ended", { reason })], {
      sync: true,
    });
  }

  /** Send a prompt and run the turn to its end. */
  async prompt(text: string, options: RunOptions): Promise<TurnResult> {
    const context = this.#context;
    await context.settle();
    const before = await context.deps.stages.beforePrompt(context.stage(options.signal), text);
    const prompted = context.event("user.prompted", promptData(text, before.refuse));
    await context.append([...context.stamp(before.events), prompted], { sync: false });
    if (before.refuse !== undefined) return refusedResult(before.refuse);
    return await runTurn(context, { ...options, continuing: false });
  }

  /**
   * Run a turn on what reached the agent while it was idle (a background job's end, later mail):
   * its arrivals are put before the model (`arrival.injected`, decided under the log's lock) and
   * answered as a prompt is. Returns null when nothing is waiting. Replay drives it at a recorded
   * `arrival.injected` that starts a run.
   */
  async wake(options: RunOptions): Promise<TurnResult | null> {
    const context = this.#context;
    await context.settle();
    if (context.deps.arrivals(context.scope()).length === 0) return null;
    // Another writer may have taken it first (a claim another teammate won): no turn then.
    if (!await injectArrivals(context, new Set())) return null;
    return await runTurn(context, { ...options, continuing: false });
  }

  /**
   * Reopen the agent after its process ended. What that process left running is recorded with
   * the resume (the `resumed` stage: a background job, lost with it). Calls whose intent was
   * recorded but whose result was not are closed as interrupted (outcome unknown), except, when
   * the turn is continued, composite ones (a subagent), which run again and continue their child.
   * With a prompt, the rest of the unfinished work is closed too and the prompt starts a new
   * turn; without one, the unfinished turn is
   * continued (calls that never started run, an unanswered request is asked again). Returns null
   * when there was nothing to continue.
   */
  async resume(
    how: "resume" | "continue",
    prompt: string | undefined,
    options: RunOptions & { settings?: SettingsSnapshot; files?: RecordedFile[] },
  ): Promise<TurnResult | null> {
    const context = this.#context;
    await context.settle();
    const before = prompt === undefined
      ? { events: [] }
      : await context.deps.stages.beforePrompt(context.stage(options.signal), prompt, "resume");
    const agent = this.conversation;
    const wasUnfinished = agent.status === "unfinished";
    const events: NewEvent[] = [context.event("session.resumed", {
      how,
      withPrompt: prompt !== undefined,
      maxTurns: options.maxTurns,
      ...(options.maxBudgetUsd === undefined ? {} : { maxBudgetUsd: options.maxBudgetUsd }),
      ...(options.settings === undefined ? {} : { settings: options.settings }),
      ...(options.files === undefined ? {} : { files: options.files }),
    })];
    events.push(...context.stamp(await context.deps.stages.resumed(context.stage(options.signal))));
    const tools = context.deps.pool(context.scope()).byName;
    for (const call of agent.openIntents) {
      // A composite call (a subagent) is continued, not closed, when the turn is: what its child
      // completed is in the log and is not run again (see `runCalls`).
      if (prompt === undefined && tools.get(call.name)?.kind === "composite") continue;
      events.push(context.event("tool.completed", closeCall(call, { outcome: "interrupted" })));
    }
    if (prompt !== undefined) {
      const intents = new Set(agent.openIntents.map((call) => call.id));
      for (const call of agent.pendingCalls) {
        if (intents.has(call.id)) continue;
        const closed = closeCall(call, { outcome: "not_run", why: "superseded" });
        events.push(context.event("tool.completed", closed));
      }
      if (wasUnfinished) {
        events.push(context.event("turn.ended", {
          reason: "interrupted",
          rounds: agent.rounds,
          message: "The process stopped before the turn ended",
        }));
      }
      // The prompt goes in the same append: a crash can never separate it from the resume that
      // announced it (replay relies on finding it).
      events.push(
        ...context.stamp(before.events),
        context.event("user.prompted", promptData(prompt, before.refuse)),
      );
    }
    await context.append(events, { sync: true });
    if (before.refuse !== undefined) return refusedResult(before.refuse);
    if (prompt !== undefined) return await runTurn(context, { ...options, continuing: false });
    if (!this.hasUnfinishedWork) return null;
    return await runTurn(context, { ...options, continuing: wasUnfinished });
  }
}

function promptData(text: string, refused: string | undefined) {
  return refused === undefined ? { text } : { text, refused };
}

/** A prompt refused before its turn: no turn ran. */
function refusedResult(reason: string): TurnResult {
  return { reason: "failed", rounds: 0, message: `The prompt was blocked: ${reason}` };
}
