import type { Envelope, EventPayloads, EventType } from "../../events/event_types.ts";
import { LOOP_EVENT_TYPES as LOOP_TYPES } from "../state/loop_events.ts";
import type { ToolRun } from "../tools/executor.ts";
import { copyJson } from "./_copy_json.ts";
import { ReleasedList } from "./_released_list.ts";

/**
 * One agent's recorded events in a session, with a cursor: what the replayed loop of that agent
 * must produce next. Events are added as the session is read, each with its index in the
 * session's order; when a method needs one not read yet, `readOn` reads the session on (its
 * events go to their agents' tapes) until this tape has it or the session has ended. Events
 * before the last one reproduced are let go.
 */
export class AgentTape {
  readonly #readOn: () => boolean;
  /**
   * The events by position on the tape, and their indexes in the session; those before the last
   * one reproduced are let go of.
   */
  readonly #events = new ReleasedList<Envelope>();
  readonly #indexes = new ReleasedList<number>();
  readonly #served = new Set<number>();
  cursor = 0;

  /** `readOn` reads the session's next event; false when there is none. */
  constructor(readOn: () => boolean) {
    this.#readOn = readOn;
  }

  /** The agent's next recorded event, at `index` in the session's order. */
  add(event: Envelope, index: number): void {
    this.#events.push(event);
    this.#indexes.push(index);
  }

  /** The event at `position` on the tape, reading on if needed; undefined past the end. */
  #at(position: number): Envelope | undefined {
    while (position >= this.#events.end) if (!this.#readOn()) return undefined;
    return this.#events.at(position);
  }

  /** Where the event at `position` (one read already) stands in the session's order. */
  #indexAt(position: number): number {
    return this.#indexes.at(position) ?? Infinity;
  }

  /** The position of `event` on the tape from the cursor on, or -1. */
  #positionOf(event: Envelope): number {
    for (let i = this.cursor; this.#at(i) !== undefined; i++) {
      if (this.#events.at(i) === event) return i;
    }
    return -1;
  }

  /** The recorded event the loop must produce next, if any. */
  next(): Envelope | undefined {
    return this.#at(this.cursor);
  }

  /** Where the next event stands in the session's order; Infinity when there is none. */
  nextIndex(): number {
    return this.#at(this.cursor) === undefined ? Infinity : this.#indexAt(this.cursor);
  }

  /** The recorded event `offset` places after the next one, if any. */
  peek(offset: number): Envelope | undefined {
    return this.#at(this.cursor + offset);
  }

  /** The last event reproduced. */
  last(): Envelope | undefined {
    return this.cursor > 0 ? this.#events.at(this.cursor - 1) : undefined;
  }

  /** Where the last event reproduced stands in the session's order; -1 when none was. */
  lastIndex(): number {
    return this.cursor > 0 ? this.#indexAt(this.cursor - 1) : -1;
  }

  advance(): void {
    this.cursor += 1;
    // Keep the last one reproduced (`last`); let go of those before it.
    this.#events.release(this.cursor - 1);
    this.#indexes.release(this.cursor - 1);
  }

  /**
   * What the recorded run of call `callId` produced, from the cursor on: the call's own events
   * and its `tool.completed`, and the index of the first of them; undefined when the next events
   * are not that call's result. Results of calls that ran at once with it (read-only calls of one
   * answer) may come first, each with its own events just before it: they are passed over.
   */
  servedRun(callId: string): (ToolRun & { firstIndex: number }) | undefined {
    let events: Envelope[] = [];
    let first = this.cursor;
    for (let i = this.cursor; this.#at(i) !== undefined; i++) {
      const event = this.#at(i) as Envelope;
      if (event.type === "tool.completed") {
        if (event.data.callId !== callId) {
          events = [];
          first = i + 1;
          continue;
        }
        return {
          events: events.map(origin),
          completed: copyJson(event.data),
          firstIndex: this.#indexAt(first),
        };
      }
      if (LOOP_TYPES.has(event.type)) return undefined;
      events.push(event);
    }
    return undefined;
  }

  /**
   * The first recorded event of `type`, from the cursor on and while `within` holds for its
   * index in the session (it holds for a first part of the tape), that `matches` and was not
   * served before; it is marked served. For readings of the world (a hook's run, a person's
   * answer) that replay serves instead of reading again.
   */
  observed<T extends EventType>(
    type: T,
    matches: (data: EventPayloads[T]) => boolean,
    within: (index: number) => boolean,
  ): EventPayloads[T] | undefined {
    for (let i = this.cursor; this.#at(i) !== undefined; i++) {
      const event = this.#at(i) as Envelope;
      if (!within(this.#indexAt(i))) return undefined;
      if (event.type !== type || this.#served.has(event.seq)) continue;
      const data = event.data as EventPayloads[T];
      if (!matches(data)) continue;
      this.#served.add(event.seq);
      return copyJson(data);
    }
    return undefined;
  }

  /** The index in the session of the agent's next event that only the loop records, or Infinity. */
  nextLoopIndex(): number {
    for (let i = this.cursor; this.#at(i) !== undefined; i++) {
      if (LOOP_TYPES.has((this.#at(i) as Envelope).type)) return this.#indexAt(i);
    }
    return Infinity;
  }

  /**
   * The input that starts the agent's next run, from the cursor on (a stage's events may come
   * before it): a prompt with the bound of the turn it starts, a resume, a switch of model, or
   * the session's start.
   */
  nextInput(): Envelope | undefined {
    for (let i = this.cursor; this.#at(i) !== undefined; i++) {
      const event = this.#at(i) as Envelope;
      if (
        event.type === "user.prompted" || event.type === "session.resumed" ||
        event.type === "session.started" || event.type === "session.ended" ||
        (event.type === "model.switched" && event.data.reason === undefined) ||
        // `/compact`, outside a turn.
        ((event.type === "compaction.started" || event.type === "compaction.failed") &&
          event.data.trigger === "manual") ||
        // An idle agent woken by what reached it (`AgentLoop.wake`).
        event.type === "arrival.injected"
      ) return event;
      if (LOOP_TYPES.has(event.type)) return undefined;
    }
    return undefined;
  }

  /** The bounds (`--max-turns`, `--max-budget-usd`) of the turn that starts after `from`. */
  limitsAfter(from: Envelope): { maxTurns: number | null; maxBudgetUsd?: number } {
    const at = this.#positionOf(from);
    for (let i = at + 1; at >= 0 && this.#at(i) !== undefined; i++) {
      const event = this.#at(i) as Envelope;
      if (event.type === "turn.started") {
        const { maxTurns, maxBudgetUsd } = event.data;
        return maxBudgetUsd === undefined ? { maxTurns } : { maxTurns, maxBudgetUsd };
      }
      if (event.type === "turn.ended" || event.type === "session.resumed") break;
    }
    return { maxTurns: null };
  }

  /** The prompt that came with the resume `from`. */
  promptAfter(from: Envelope): string | undefined {
    const at = this.#positionOf(from);
    for (let i = at + 1; at >= 0 && this.#at(i) !== undefined; i++) {
      const event = this.#at(i) as Envelope;
      if (event.type === "user.prompted") return event.data.text;
      if (event.type === "turn.started") break;
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
