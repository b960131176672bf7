import type { Envelope, EventPayloads, EventType } from "../../events/event_types.ts";
import { emptyTaskGraph, evolveTaskGraph, type TaskGraph } from "./tasks_projection.ts";

/** An agent of a session, for tests of the task graph. */
export const LEAD = { session: "s1-aaaaaaaa", agent: "lead" };
export const OTHER = { session: "s2-bbbbbbbb", agent: "lead" };
export const HELPER = { session: "s1-aaaaaaaa", agent: "helper" };

/** Task events of agents, numbered in order, and the graph they fold to. Test helper. */
export class GraphLog {
  readonly events: Envelope[] = [];
  readonly graph: TaskGraph = emptyTaskGraph();

  add<T extends EventType>(
    by: { session: string; agent: string },
    type: T,
    data: EventPayloads[T],
  ): this {
    const event = {
      v: 2,
      seq: this.events.length + 1,
      ts: "2026-11-22T10:00:00.000Z",
      type,
      data,
      ...by,
    } as Envelope;
    this.events.push(event);
    evolveTaskGraph(this.graph, event);
    return this;
  }

  /** Task `id` created by LEAD with `blockedBy`. */
  create(id: number, blockedBy: number[] = [], subject = `Task ${id}`): this {
    return this.add(LEAD, "task.created", { id, subject, description: "", blockedBy });
  }

  claim(id: number, by = LEAD): this {
    return this.add(by, "task.claimed", { id });
  }

  complete(id: number, by = LEAD): this {
    return this.add(by, "task.completed", { id });
  }
}
