import type {
  Envelope,
  EventPayloads,
  EventType,
  NewEvent,
  ReinEvent,
} from "../../events/event_types.ts";
import { agentOf, type AgentView, type SessionView } from "../state/sessions.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import type { LoopDeps } from "./loop_deps.ts";
import type { StageContext } from "./stages.ts";

/** One agent's loop as its stages see it: the deps, whose it is, and how it records. */
export class TurnContext {
  readonly deps: LoopDeps;
  readonly session: string;
  readonly agent: string;

  constructor(deps: LoopDeps, session: string, agent: string) {
    this.deps = deps;
    this.session = session;
    this.agent = agent;
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

  /** What a stage handler sees. */
  stage(signal: AbortSignal): StageContext {
    return { session: this.session, agent: this.agent, view: () => this.deps.state, signal };
  }

  /** An event of this agent. */
  event<T extends EventType>(type: T, data: EventPayloads[T]): NewEvent {
    return { type, data, session: this.session, agent: this.agent } as NewEvent;
  }

  /** Stamp events made by a tool or a stage as this agent's. */
  stamp(events: readonly ReinEvent[]): NewEvent[] {
    return events.map((event) =>
      ({ ...event, session: this.session, agent: this.agent }) as NewEvent
    );
  }

  /** Append a batch; `sync` flushes it to disk before returning (tool intents, turn ends). */
  append(events: readonly NewEvent[], options: { sync: boolean }): Promise<Envelope[]> {
    if (events.length === 0) return Promise.resolve([]);
    return this.deps.store.append(events, options);
  }
}
