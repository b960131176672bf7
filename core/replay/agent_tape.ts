import type { Envelope, EventType } from "../../events/event_types.ts";
import type { ToolRun } from "../tools/executor.ts";

/**
 * One agent's recorded events in a session, with a cursor: what the replayed loop of that agent
 * must produce next. Events of fed types (arrivals from outside the loop) are marked so the
 * replay can feed them instead of expecting them.
 */
export class AgentTape {
  readonly events: readonly Envelope[];
  readonly #fed: ReadonlySet<EventType>;
  readonly #index: ReadonlyMap<number, number>;
  cursor = 0;
  /** Set when the loop went past the point where the recorded process died. */
  crashed = false;

  constructor(events: readonly Envelope[], fed: ReadonlySet<EventType>) {
    this.events = events;
    this.#fed = fed;
    this.#index = new Map(events.map((event, i) => [event.seq, i]));
  }

  /** Split a session's events into one tape per agent. Pure. */
  static split(
    recorded: readonly Envelope[],
    fed: ReadonlySet<EventType>,
  ): Map<string, AgentTape> {
    const byAgent = new Map<string, Envelope[]>();
    for (const event of recorded) {
      const list = byAgent.get(event.agent);
      if (list) list.push(event);
      else byAgent.set(event.agent, [event]);
    }
    return new Map([...byAgent].map(([agent, events]) => [agent, new AgentTape(events, fed)]));
  }

  /** The recorded event the loop must produce next, if any. */
  next(): Envelope | undefined {
    return this.events[this.cursor];
  }

  advance(): void {
    this.cursor += 1;
  }

  /** True when `event` (of this tape) was already reproduced. */
  consumed(event: Envelope): boolean {
    return (this.#index.get(event.seq) ?? Infinity) < this.cursor;
  }

  /** True when the next event arrives from outside the loop and is to be fed. */
  nextIsFed(): boolean {
    const next = this.next();
    return next !== undefined && this.#fed.has(next.type);
  }

  /**
   * What the recorded run of call `callId` produced, from the cursor on: the call's own events
   * and its `tool.completed`; undefined when the next events are not that call's result.
   */
  servedRun(callId: string): ToolRun | undefined {
    const events = [];
    for (let i = this.cursor; i < this.events.length; i++) {
      const event = this.events[i] as Envelope;
      if (event.type === "tool.completed") {
        if (event.data.callId !== callId) return undefined;
        return { events: events.map(origin), completed: structuredClone(event.data) };
      }
      if (event.type.startsWith("tool.") || event.type.startsWith("model.")) return undefined;
      if (event.type === "session.resumed" || event.type.startsWith("turn.")) return undefined;
      events.push(event);
    }
    return undefined;
  }

  /** The `--max-turns` of the turn a prompt at the cursor started. */
  maxTurnsAfterPrompt(): number | null {
    const started = this.events[this.cursor + 1];
    return started?.type === "turn.started" ? started.data.maxTurns : null;
  }

  /** The prompt that came with the resume at the cursor. */
  promptAfterResume(): string | undefined {
    for (let i = this.cursor + 1; i < this.events.length; i++) {
      const event = this.events[i];
      if (event?.type === "user.prompted") return event.data.text;
    }
    return undefined;
  }
}

/** An event without what the store stamps (seq, ts, version), for comparison. */
export function comparable(
  event: { type: string; session: string; agent: string; data: unknown },
) {
  return JSON.parse(JSON.stringify({
    type: event.type,
    session: event.session,
    agent: event.agent,
    data: event.data,
  }));
}

/** True when the recorded event shows that the user cancelled the turn here. */
export function isCancellation(event: Envelope | undefined): boolean {
  if (!event) return false;
  return (event.type === "tool.completed" && event.data.outcome === "cancelled") ||
    event.type === "model.cancelled" ||
    (event.type === "turn.ended" && event.data.reason === "cancelled");
}

function origin(event: Envelope) {
  const { type, data, session, agent } = event;
  return { type, data: structuredClone(data), session, agent } as ToolRun["events"][number];
}
