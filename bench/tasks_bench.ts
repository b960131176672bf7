/**
 * The task graph at scale: `deno bench --allow-all bench/tasks_bench.ts`.
 * - `unblockedTasks` on a 10,000-task graph (target: under 5 ms);
 * - folding task events stays linear: the same mix of events (tasks created with up to three
 *   dependencies, claimed, completed, some cancelled, some given a new dependency, which checks
 *   for a cycle) folded at 10k, 20k and 40k tasks, per event the same, as the catalog folds them
 *   (`evolveCatalog`, every event of the log goes through it).
 * @module
 */
import type { Envelope, ReinEvent } from "../events/event_types.ts";
import { emptyCatalog, evolveCatalog } from "../core/state/catalog.ts";
import { unblockedTasks } from "../core/tasks/task_graph.ts";
import { emptyTaskGraph, evolveTaskGraph, type TaskGraph } from "../core/tasks/tasks_projection.ts";

/** A deterministic generator (mulberry32), so every run benches the same graph. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AGENTS = ["lead", "alice", "bob", "carol"];

/**
 * The task events of a workspace that created `count` tasks while agents worked through them:
 * each task waits for up to three of the 40 before it; each is claimed and completed by one of
 * four agents 50 tasks after its creation (so about 50 are open at any time), except 1 in 50,
 * cancelled then instead (no task waits for those); 1 in 25 is given one more dependency while
 * pending, which checks for a cycle. About 3 events per task.
 */
function taskEvents(count: number): Envelope[] {
  const next = random(count);
  const events: Envelope[] = [];
  const add = (event: ReinEvent, agent: string) =>
    events.push({
      ...event,
      v: 2,
      seq: events.length + 1,
      ts: "2026-11-22T10:00:00.000Z",
      session: "s1",
      agent,
    } as Envelope);
  const doomed = new Set<number>();
  const lag = 50;
  const recent = (id: number) => {
    const dep = Math.max(1, id - 1 - Math.floor(next() * 40));
    return dep < id && !doomed.has(dep) ? [dep] : [];
  };
  for (let id = 1; id <= count; id++) {
    const blockedBy = [
      ...new Set(Array.from({ length: Math.floor(next() * 4) }, () => recent(id)).flat()),
    ];
    add(
      { type: "task.created", data: { id, subject: `Task ${id}`, description: "", blockedBy } },
      "lead",
    );
    if (next() < 0.02) doomed.add(id);
    const more = recent(id).filter((dep) => !blockedBy.includes(dep));
    if (next() < 0.04 && more.length > 0) {
      add({ type: "task.updated", data: { id, addBlockedBy: more } }, "lead");
    }
    const work = id - lag;
    if (work < 1) continue;
    if (doomed.has(work)) {
      add({ type: "task.cancelled", data: { id: work } }, "lead");
    } else {
      const agent = AGENTS[work % AGENTS.length]!;
      add({ type: "task.claimed", data: { id: work } }, agent);
      add({ type: "task.completed", data: { id: work } }, agent);
    }
  }
  return events;
}

function foldGraph(events: readonly Envelope[]): TaskGraph {
  const graph = emptyTaskGraph();
  for (const event of events) evolveTaskGraph(graph, event);
  return graph;
}

/** A plan of 10,000 tasks, none started: each waits for up to three of the 40 before it. */
const plan = foldGraph(
  taskEvents(10_000).filter((e) => e.type === "task.created" || e.type === "task.updated"),
);
/** The same workspace with the work done as `taskEvents` does it: about 50 tasks left open. */
const worked = foldGraph(taskEvents(10_000));

for (const [name, graph] of [["a plan of", plan], ["a worked-through", worked]] as const) {
  const pending = graph.tasks.filter((t) => t.status === "pending").length;
  const ready = unblockedTasks(graph).length;
  Deno.bench(
    `unblockedTasks on ${name} 10,000-task graph (${pending} pending, ${ready} ready)`,
    { group: "unblocked" },
    () => {
      unblockedTasks(graph);
    },
  );
}

for (const count of [10_000, 20_000, 40_000]) {
  const events = taskEvents(count);
  Deno.bench(
    `fold ${events.length} task events (${count} tasks) into the catalog`,
    { group: "fold", baseline: count === 10_000, n: 20 },
    () => {
      const catalog = emptyCatalog();
      for (const event of events) evolveCatalog(catalog, event);
    },
  );
}
