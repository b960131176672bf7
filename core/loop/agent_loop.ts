import type { EventStore } from "../../events/store.ts";
import type {
  ConversationMessage,
  EventPayloads,
  EventType,
  NewEvent,
} from "../../events/event_types.ts";
import { awaitsModel, type Conversation, lastAssistantText } from "../state/conversation.ts";
import type { SessionView, State } from "../state/state.ts";
import { runTurn, type TurnDeps, type TurnResult } from "./run_turn.ts";

/** How a new session is set up; every field is recorded in `session.started`. */
export interface SessionSetup {
  id: string;
  model: string;
  workspace: string;
  maxTokens: number;
  platform: string;
  forkedFrom?: { session: string; seq: number };
  history?: ConversationMessage[];
}

/** Everything a session needs from outside: the log, the projected state, and the effects. */
export interface SessionDeps extends TurnDeps {
  store: EventStore;
  /** Kept current by the store's listener; the session only reads it. */
  state: State;
}

/** Options of one run (a prompt, or the continuation of unfinished work). */
export interface RunOptions {
  signal: AbortSignal;
  /** Bound on model rounds in this run; null for none. */
  maxTurns: number | null;
}

const AGENT = "lead";

/**
 * One agent session over the shared log. It holds no state of its own: everything it knows is
 * read from the projected `state`, so a live run, a resumed run and a replay behave the same.
 * CLI modes (REPL, `-p`, replay) are thin adapters over this object.
 */
export class AgentSession {
  readonly id: string;
  readonly #deps: SessionDeps;

  private constructor(deps: SessionDeps, id: string) {
    this.#deps = deps;
    this.id = id;
  }

  /** Start a new session: records `session.started` with a clock reading. */
  static async start(deps: SessionDeps, setup: SessionSetup): Promise<AgentSession> {
    const session = new AgentSession(deps, setup.id);
    await session.#append("session.started", {
      model: setup.model,
      workspace: setup.workspace,
      startedAt: deps.clock().toISOString(),
      maxTokens: setup.maxTokens,
      platform: setup.platform,
      ...(setup.forkedFrom ? { forkedFrom: setup.forkedFrom } : {}),
      ...(setup.history ? { history: setup.history } : {}),
    }, false);
    return session;
  }

  /** Attach to a session that exists in the log. Throws if it does not. */
  static open(deps: SessionDeps, id: string): AgentSession {
    if (!deps.state.sessions[id]) throw new Error(`No session "${id}" in the log`);
    return new AgentSession(deps, id);
  }

  /** The projected view of this session. */
  get view(): SessionView {
    const view = this.#deps.state.sessions[this.id];
    if (!view) throw new Error(`No session "${this.id}" in the log`);
    return view;
  }

  /** The lead agent's conversation. */
  get conversation(): Conversation {
    const conversation = this.view.agents[AGENT];
    if (!conversation) throw new Error(`Session "${this.id}" has no lead conversation`);
    return conversation;
  }

  /** The final text of the last answer. */
  get lastText(): string {
    return lastAssistantText(this.conversation);
  }

  /**
   * True when a turn was cut off, a call never ran, or a request was never answered. A turn the
   * user cancelled is not unfinished work: reopening the session waits for a new prompt.
   */
  get hasUnfinishedWork(): boolean {
    const conversation = this.conversation;
    if (conversation.openIntents.length > 0 || this.view.status === "unfinished") return true;
    if (this.view.status === "cancelled") return false;
    return conversation.pendingCalls.length > 0 || awaitsModel(conversation);
  }

  /** Send a prompt and run the turn to its end. */
  async prompt(text: string, options: RunOptions): Promise<TurnResult> {
    await this.#append("user.prompted", { text }, false);
    return await runTurn(this.#turnContext(), { ...options, continuing: false });
  }

  /**
   * Reopen the session after its process ended. Calls whose intent was recorded but whose result
   * was not are closed as "interrupted: outcome unknown". With a prompt, the rest of the
   * unfinished work is closed too and the prompt starts a new turn; without one, the unfinished
   * turn is continued (calls that never started run, an unanswered request is asked again).
   * Returns null when there was nothing to continue.
   */
  async resume(
    how: "resume" | "continue",
    prompt: string | undefined,
    options: RunOptions,
  ): Promise<TurnResult | null> {
    const conversation = this.conversation;
    const wasUnfinished = this.view.status === "unfinished";
    const events: NewEvent[] = [this.#event("session.resumed", {
      how,
      withPrompt: prompt !== undefined,
      maxTurns: options.maxTurns,
    })];
    for (const call of conversation.openIntents) {
      events.push(this.#event("tool.completed", {
        callId: call.id,
        name: call.name,
        content: "Interrupted: outcome unknown. The agent stopped while this call was running, " +
          "so it may or may not have taken effect; check before repeating it.",
        isError: true,
        durationMs: 0,
        outcome: "interrupted",
      }));
    }
    if (prompt !== undefined) {
      const intents = new Set(conversation.openIntents.map((call) => call.id));
      for (const call of conversation.pendingCalls) {
        if (intents.has(call.id)) continue;
        events.push(this.#event("tool.completed", {
          callId: call.id,
          name: call.name,
          content: "Not run: the session was interrupted before this call started.",
          isError: true,
          durationMs: 0,
          outcome: "interrupted",
        }));
      }
      if (wasUnfinished) {
        events.push(this.#event("turn.ended", {
          reason: "interrupted",
          turns: conversation.turns,
          message: "The process stopped before the turn ended",
        }));
      }
    }
    // The prompt goes in the same append: a crash can never separate it from the resume that
    // announced it (replay relies on finding it).
    if (prompt !== undefined) events.push(this.#event("user.prompted", { text: prompt }));
    await this.#deps.store.append(events, { sync: true });
    if (prompt !== undefined) {
      return await runTurn(this.#turnContext(), { ...options, continuing: false });
    }
    if (!this.hasUnfinishedWork) return null;
    return await runTurn(this.#turnContext(), { ...options, continuing: wasUnfinished });
  }

  #turnContext() {
    return {
      deps: this.#deps,
      view: () => this.view,
      append: (events: NewEvent[], sync: boolean) => this.#deps.store.append(events, { sync }),
      event: <T extends EventType>(type: T, data: EventPayloads[T]) => this.#event(type, data),
    };
  }

  #event<T extends EventType>(type: T, data: EventPayloads[T]): NewEvent {
    return { type, data, session: this.id, agent: AGENT } as NewEvent;
  }

  async #append<T extends EventType>(type: T, data: EventPayloads[T], sync: boolean) {
    await this.#deps.store.append([this.#event(type, data)], { sync });
  }
}
