import assert from "node:assert/strict";
import fc from "fast-check";
import type { Envelope, ReinEvent } from "../../events/event_types.ts";
import { cycleThrough, unblockedTasks } from "./task_graph.ts";
import {
  cancelRefusal,
  claimRefusal,
  completeRefusal,
  createRefusal,
  updateRefusal,
} from "./task_rules.ts";
import {
  emptyTaskGraph,
  evolveTaskGraph,
  type TaskGraph,
  taskOf,
  type TaskOwner,
} from "./tasks_projection.ts";

const AGENTS: TaskOwner[] = [
  { session: "s1", agent: "lead" },
  { session: "s1", agent: "helper" },
  { session: "s2", agent: "lead" },
];

type Command =
  | { kind: "create"; blockedBy: number[] }
  | { kind: "claim" | "complete" | "cancel"; id: number; by: number }
  | { kind: "update"; id: number; add: number[]; remove: number[] };

const id = fc.integer({ min: 1, max: 12 });
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("create" as const),
      blockedBy: fc.array(id, { maxLength: 3 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom("claim" as const, "complete" as const, "cancel" as const),
      id,
      by: fc.integer({ min: 0, max: AGENTS.length - 1 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("update" as const),
      id,
      add: fc.array(id, { maxLength: 2 }),
      remove: fc.array(id, { maxLength: 1 }),
    }),
  },
);

function fold(graph: TaskGraph, event: ReinEvent, by: TaskOwner, seq: number): void {
  evolveTaskGraph(graph, { ...event, ...by, v: 2, seq, ts: "" } as Envelope);
}

let edits = 0;

/** The event a tool would record for `command`, and the rules' verdict on it. */
function planned(graph: TaskGraph, command: Command): { event: ReinEvent; refusal?: string } {
  const by = "by" in command ? AGENTS[command.by]! : AGENTS[0]!;
  switch (command.kind) {
    case "create": {
      const blockedBy = [...new Set(command.blockedBy)];
      const event: ReinEvent = {
        type: "task.created",
        data: { id: graph.tasks.length + 1, subject: "t", description: "", blockedBy },
      };
      const refusal = createRefusal(graph, { subject: "t", blockedBy });
      return refusal === undefined ? { event } : { event, refusal };
    }
    case "claim": {
      const refusal = claimRefusal(graph, command.id, by);
      const event: ReinEvent = { type: "task.claimed", data: { id: command.id } };
      return refusal === undefined ? { event } : { event, refusal };
    }
    case "complete": {
      const refusal = completeRefusal(graph, command.id, by);
      const event: ReinEvent = { type: "task.completed", data: { id: command.id } };
      return refusal === undefined ? { event } : { event, refusal };
    }
    case "cancel": {
      const refusal = cancelRefusal(graph, command.id);
      const event: ReinEvent = { type: "task.cancelled", data: { id: command.id } };
      return refusal === undefined ? { event } : { event, refusal };
    }
    case "update": {
      // The tool sends no empty update: it asks for something to change.
      const data = {
        id: command.id,
        ...(command.add.length || command.remove.length ? {} : { description: `edit ${++edits}` }),
        ...(command.add.length ? { addBlockedBy: command.add } : {}),
        ...(command.remove.length ? { removeBlockedBy: command.remove } : {}),
      };
      const refusal = updateRefusal(graph, data);
      const event: ReinEvent = { type: "task.updated", data };
      return refusal === undefined ? { event } : { event, refusal };
    }
  }
}

/** Whether `from` waits for `to` through `blockedBy` edges, by breadth-first search. */
function reaches(graph: TaskGraph, from: number, to: number): boolean {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    if (at === to) return true;
    for (const next of taskOf(graph, at)?.blockedBy ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

function assertInvariants(graph: TaskGraph): void {
  for (const task of graph.tasks) {
    assert.equal(taskOf(graph, task.id), task, "task n is at index n - 1");
    for (const dep of task.blockedBy) {
      assert.ok(taskOf(graph, dep)?.blocks.includes(task.id), "blocks mirrors blockedBy");
      assert.ok(!reaches(graph, dep, task.id), `a cycle through #${task.id} and #${dep}`);
    }
    for (const dependent of task.blocks) {
      assert.ok(taskOf(graph, dependent)?.blockedBy.includes(task.id), "blockedBy mirrors blocks");
    }
    assert.equal(
      task.owner === null,
      task.status === "pending" || (task.status === "cancelled" && task.owner === null),
    );
    if (task.status === "in_progress" || task.status === "completed") {
      assert.ok(
        task.blockedBy.every((dep) => taskOf(graph, dep)?.status === "completed"),
        `#${task.id} was claimed while something it waits for is open`,
      );
    }
  }
  const ready = graph.tasks.filter((t) =>
    t.status === "pending" && t.owner === null &&
    t.blockedBy.every((dep) => taskOf(graph, dep)?.status === "completed")
  );
  assert.deepEqual(unblockedTasks(graph), ready);
}

Deno.test("the rules refuse exactly the commands whose events the fold would ignore", () => {
  fc.assert(
    fc.property(fc.array(commandArb, { maxLength: 60 }), (commands) => {
      const graph = emptyTaskGraph();
      let seq = 0;
      for (const command of commands) {
        const { event, refusal } = planned(graph, command);
        const by = "by" in command ? AGENTS[command.by]! : AGENTS[0]!;
        const before = structuredClone(graph);
        if (command.kind === "create") {
          // Creation refuses more than the fold ignores (a cancelled dependency): what it lets
          // through is applied whole.
          if (refusal !== undefined) continue;
          fold(graph, event, by, ++seq);
          assert.equal(graph.tasks.length, before.tasks.length + 1);
          assert.deepEqual(graph.tasks.at(-1)?.blockedBy, [...new Set(command.blockedBy)]);
        } else {
          fold(graph, event, by, ++seq);
          if (refusal === undefined) {
            assert.notDeepEqual(graph, before, `${command.kind} accepted but not applied`);
          } else {
            assert.deepEqual(graph, before, `${command.kind} refused (${refusal}) but applied`);
          }
        }
        assertInvariants(graph);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("cycleThrough finds a cycle exactly when the new blocker already waits for the task", () => {
  fc.assert(
    fc.property(
      fc.array(commandArb, { minLength: 10, maxLength: 60 }),
      fc.nat(),
      fc.nat(),
      (commands, i, j) => {
        const graph = emptyTaskGraph();
        let seq = 0;
        for (const command of commands) {
          const { event, refusal } = planned(graph, command);
          if (refusal === undefined) fold(graph, event, AGENTS[0]!, ++seq);
        }
        fc.pre(graph.tasks.length > 0);
        const a = (i % graph.tasks.length) + 1;
        const b = (j % graph.tasks.length) + 1;
        const cycle = cycleThrough(graph, a, b);
        assert.equal(cycle !== undefined, reaches(graph, b, a));
        if (cycle !== undefined) {
          assert.equal(cycle[0], a);
          assert.equal(cycle.at(-1), a);
          for (let i = 1; i < cycle.length - 1; i++) {
            assert.ok(taskOf(graph, cycle[i]!)?.blockedBy.includes(cycle[i + 1]!));
          }
        }
      },
    ),
    { numRuns: 300 },
  );
});
