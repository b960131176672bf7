import type {
  Envelope,
  EventPayloads,
  EventType,
  ModelPurpose,
  NewEvent,
  ReinEvent,
} from "../../events/event_types.ts";
import { agentOf, type AgentView, type SessionView } from "../state/sessions.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import type { LoopDeps } from "./loop_deps.ts";
import type { MessagesRequest } from "../effects/model_client.ts";
import { assembleRequest } from "../request/assemble_request.ts";
import { LOOP_EVENT_TYPES } from "../state/loop_events.ts";
import type { StageContext } from "./stages.ts";
import { waitForEvent } from "./wait_for_event.ts";
import type { SiblingAgent } from "../tools/sibling_agent.ts";
import type { ToolRun } from "../tools/executor.ts";

/**
 * What a turn's context reaches through its agent loop, given by the loop (core/loop/agent_loop.ts)
 * so that this file depends on neither it nor the model call.
 */
export interface TurnLinks {
  /** Another agent of the session on the same deps (for composite tools). */
  sibling?: (agent: string) => SiblingAgent;
  /** A side request to the model (a summary), as `callModel` makes it. */
  askModel?: (
    context: TurnContext,
    signal: AbortSignal,
    side: { purpose: ModelPurpose; build: () => MessagesRequest },
  ) => ReturnType<StageContext["askModel"]>;
}

/** One agent's loop as its stages see it: the deps, whose it is, and how it records. */
export class TurnContext {
  readonly deps: LoopDeps;
  readonly session: string;
  readonly agent: string;
  /** Another agent of the session on the same deps (for composite tools); absent in tests. */
  readonly sibling: ((agent: string) => SiblingAgent) | undefined;
  readonly #askModel: TurnLinks["askModel"] | undefined;

  constructor(deps: LoopDeps, session: string, agent: string, links: TurnLinks = {}) {
    this.deps = deps;
    this.session = session;
    this.agent = agent;
    this.sibling = links.sibling;
    this.#askModel = links.askModel;
  }

  /** The session's projected view. Throws if the session is not in the log. */
  view(): SessionView {
    const view = this.deps.state.sessions.byId[this.session];
    if (!view) throw new Error(`No session "${this.session}" in the log`);
    return view;
  }

  /** This agent's projected view: its conversation, status and usage. */
  agentView(): AgentView {
    return agentOf(this.view(), this.agent);
  }

  /** Whose pool and prompt it is, as the tool pool and sections are asked. */
  scope(): PoolScope {
    return { state: this.deps.state, session: this.session, agent: this.agent };
  }

  /** The request this agent's next round sends, assembled from the state now. Pure. */
  nextRequest(): MessagesRequest {
    const scope = this.scope();
    const { pool, sections } = this.deps;
    return assembleRequest(scope.state, this.session, this.agent, pool(scope), sections(scope));
  }

  /** What a stage handler sees. */
  stage(signal: AbortSignal): StageContext {
    const origin = { session: this.session, agent: this.agent };
    /** What `waitFor` looks after: the stage's last recorded event, or where it began. */
    let since = this.deps.state.lastSeq;
    return {
      ...origin,
      view: () => this.deps.state,
      signal,
      observe: (type, matches, read) =>
        this.deps.effects.observe ? this.deps.effects.observe(origin, type, matches, read) : read(),
      observeMaybe: (type, matches, read) =>
        this.deps.effects.observeMaybe
          ? this.deps.effects.observeMaybe(origin, type, matches, read)
          : read(),
      record: async (events) => {
        const stored = await this.append(this.stamp(events), { sync: true });
        since = stored.at(-1)?.seq ?? since;
      },
      waitFor: (type, matches, waitSignal) =>
        this.deps.effects.waitFor
          ? this.deps.effects.waitFor(origin, type, matches, waitSignal, since)
          : waitForEvent(this.deps.store, since, type, matches, waitSignal),
      askModel: (purpose, build) => {
        if (this.#askModel === undefined) throw new Error("No model to ask in this context");
        return this.#askModel(this, signal, { purpose, build });
      },
      stages: this.deps.stages,
      nextRequest: () => this.nextRequest(),
    };
  }

  /** An event of this agent. */
  event<T extends EventType>(type: T, data: EventPayloads[T]): NewEvent {
    return { type, data, session: this.session, agent: this.agent } as NewEvent;
  }

  /** Stamp events made by a stage as this agent's. Throws for a type only the loop records. */
  stamp(events: readonly ReinEvent[]): NewEvent[] {
    const owned = events.find((event) => LOOP_EVENT_TYPES.has(event.type));
    if (owned) {
      throw new Error(`A stage returned a ${owned.type} event, which only the loop records`);
    }
    return events.map((event) =>
      ({ ...event, session: this.session, agent: this.agent }) as NewEvent
    );
  }

  /** Wait until the state is what this agent's next step read when it was recorded. */
  settle(): Promise<void> {
    return this.deps.effects.settle?.({ session: this.session, agent: this.agent }) ??
      Promise.resolve();
  }

  /**
   * Record a call's result: the tool's events, then its `tool.completed`, in one batch. A run
   * decided under the lock (`ToolRun.decide`) is decided there, on the state caught up with
   * every writer. Resolves to the run as recorded.
   */
  async recordRun(run: ToolRun): Promise<ToolRun> {
    const { decide } = run;
    if (decide === undefined) {
      await this.append([...run.events, this.event("tool.completed", run.completed)], {
        sync: false,
      });
      return run;
    }
    let decided = run;
    await this.deps.store.appendDecided(() => {
      const { events, completed } = decide(this.deps.state);
      // The call's duration is the run's (replay serves it from the log).
      decided = { events, completed: { ...completed, durationMs: run.completed.durationMs } };
      return [...decided.events, this.event("tool.completed", decided.completed)];
    }, { sync: false });
    return decided;
  }

  /** Append a batch; `sync` flushes it to disk before returning (tool intents, turn ends). */
  append(events: readonly NewEvent[], options: { sync: boolean }): Promise<Envelope[]> {
    if (events.length === 0) return Promise.resolve([]);
    return this.deps.store.append(events, options);
  }
}
