import type { Envelope, EventPayloads, EventType } from "../../events/event_types.ts";
import { LOOP_EVENT_TYPES as LOOP_TYPES } from "../loop/loop_events.ts";
import type { ToolRun } from "../tools/executor.ts";
import { copyJson } from "./_copy_json.ts";

/**
 * One agent's recorded events in a session, with a cursor: what the replayed loop of that agent
 * must produce next. `index` places each event in the session's order.
 */
export class AgentTape {
  readonly events: readonly Envelope[];
  readonly #index: ReadonlyMap<number, number>;
  readonly #served = new Set<number>();
  cursor = 0;

  constructor(events: readonly Envelope[], index: ReadonlyMap<number, number>) {
    this.events = events;
    this.#index = index;
  }

  /**
   * Split a session's events into one tape per agent, leaving out those `fed` says reach the
   * agent from outside its loop: the loop never produces them, so they are not on its tape (an
   * arrival recorded while a call ran is not among the call's events). Pure.
   */
  static split(
    recorded: readonly Envelope[],
    fed: (event: Envelope) => boolean = () => false,
  ): Map<string, AgentTape> {
    const index = new Map(recorded.map((event, i) => [event.seq, i]));
    const byAgent = new Map<string, Envelope[]>();
    for (const event of recorded) {
      if (fed(event)) continue;
      const list = byAgent.get(event.agent);
      if (list) list.push(event);
      else byAgent.set(event.agent, [event]);
    }
    return new Map([...byAgent].map(([agent, events]) => [agent, new AgentTape(events, index)]));
  }

  /** The recorded event the loop must produce next, if any. */
  next(): Envelope | undefined {
    return this.events[this.cursor];
  }

  /** The recorded event `offset` places after the next one, if any. */
  peek(offset: number): Envelope | undefined {
    return this.events[this.cursor + offset];
  }

  /** The last event reproduced. */
  last(): Envelope | undefined {
    return this.events[this.cursor - 1];
  }

  /** Where `event` stands in the session's order. */
  indexOf(event: Envelope): number {
    return this.#index.get(event.seq) ?? Infinity;
  }

  advance(): void {
    this.cursor += 1;
  }

  /**
   * What the recorded run of call `callId` produced, from the cursor on: the call's own events
   * and its `tool.completed`, and the index of the first of them; undefined when the next events
   * are not that call's result. Results of calls that ran at once with it (read-only calls of one
   * answer) may come first, each with its own events just before it: they are passed over.
   */
  servedRun(callId: string): (ToolRun & { firstIndex: number }) | undefined {
    let events: Envelope[] = [];
    for (let i = this.cursor; i < this.events.length; i++) {
      const event = this.events[i] as Envelope;
      if (event.type === "tool.completed") {
        if (event.data.callId !== callId) {
          events = [];
          continue;
        }
        return {
          events: events.map(origin),
          completed: copyJson(event.data),
          firstIndex: this.indexOf(events[0] ?? event),
        };
      }
      if (LOOP_TYPES.has(event.type)) return undefined;
      events.push(event);
    }
    return undefined;
  }

  /**
   * The first recorded event of `type`, from the cursor on and before log index `end`, that
   * `matches` and was not served before; it is marked served. For readings of the world (a hook's
   * run, a person's answer) that replay serves instead of reading again.
   */
  observed<T extends EventType>(
    type: T,
    matches: (data: EventPayloads[T]) => boolean,
    end: number,
  ): EventPayloads[T] | undefined {
    for (let i = this.cursor; i < this.events.length; i++) {
      const event = this.events[i] as Envelope;
      if (this.indexOf(event) >= end) return undefined;
      if (event.type !== type || this.#served.has(event.seq)) continue;
      const data = event.data as EventPayloads[T];
      if (!matches(data)) continue;
      this.#served.add(event.seq);
      return copyJson(data);
    }
    return undefined;
  }

  /** The log index of the agent's next event that only the loop records, or Infinity. */
  nextLoopIndex(): number {
    for (let i = this.cursor; i < this.events.length; i++) {
      const event = this.events[i] as Envelope;
      if (LOOP_TYPES.has(event.type)) return this.indexOf(event);
    }
    return Infinity;
  }

  /**
   * The input that starts the agent's next run, from the cursor on (a stage's events may come
   * before it): a prompt with the bound of the turn it starts, a resume, a switch of model, or
   * the session's start.
   */
  nextInput(): Envelope | undefined {
    for (let i = this.cursor; i < this.events.length; i++) {
      const event = this.events[i] as Envelope;
      if (
        event.type === "user.prompted" || event.type === "session.resumed" ||
        event.type === "session.started" || event.type === "session.ended" ||
        (event.type === "model.switched" && event.data.reason === undefined) ||
        // `/compact`, outside a turn.
        ((event.type === "compaction.started" || event.type === "compaction.failed") &&
          event.data.trigger === "manual")
      ) return event;
      if (LOOP_TYPES.has(event.type)) return undefined;
    }
    return undefined;
  }

  /** The bounds (`--max-turns`, `--max-budget-usd`) of the turn that starts after `from`. */
  limitsAfter(from: Envelope): { maxTurns: number | null; maxBudgetUsd?: number } {
    for (let i = this.events.indexOf(from) + 1; i < this.events.length; i++) {
      const event = this.events[i];
      if (event?.type === "turn.started") {
        const { maxTurns, maxBudgetUsd } = event.data;
        return maxBudgetUsd === undefined ? { maxTurns } : { maxTurns, maxBudgetUsd };
      }
      if (event?.type === "turn.ended" || event?.type === "session.resumed") break;
    }
    return { maxTurns: null };
  }

  /** The prompt that came with the resume `from`. */
  promptAfter(from: Envelope): string | undefined {
    for (let i = this.events.indexOf(from) + 1; i < this.events.length; i++) {
      const event = this.events[i];
      if (event?.type === "user.prompted") return event.data.text;
      if (event?.type === "turn.started") break;
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
  return { type, data: copyJson(data), session, agent } as ToolRun["events"][number];
}
