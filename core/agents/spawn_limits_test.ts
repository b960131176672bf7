import assert from "node:assert/strict";
import type { AgentSpawned, Envelope } from "../../events/event_types.ts";
import { eventFactory, respondedData, startedData } from "../../testing/event_factory.ts";
import { foldEvents } from "../state/state.ts";
import type { SessionView } from "../state/sessions.ts";
import {
  MAX_SUBAGENT_DEPTH,
  MAX_TASKS_PER_ANSWER,
  spawnRefusal,
  subagentDepth,
} from "./spawn_limits.ts";

function spawned(parent: string, callId: string): AgentSpawned {
  return {
    parent,
    callId,
    type: "deep",
    description: "go deeper",
    model: "claude-test",
    maxTokens: 1000,
    maxTurns: 30,
    tools: ["task"],
  };
}

/** A session whose lead started `a`, which started `b`, which started `c`, each by a task call. */
function chain(): SessionView {
  const events: Envelope[] = [eventFactory("s1", "lead")("session.started", startedData())];
  let parent = "lead";
  for (const name of ["a", "b", "c"]) {
    events.push({ ...eventFactory("s1", name)("agent.spawned", spawned(parent, `call_${name}`)) });
    parent = name;
  }
  events.forEach((event, i) => (event.seq = i + 1));
  const view = foldEvents(events).sessions.byId["s1"];
  assert.ok(view);
  return view;
}

/** A session whose lead answered with `count` task calls `toolu_0`… and a read_file call. */
function answerWithTasks(count: number): SessionView {
  const e = eventFactory();
  const calls = Array.from({ length: count }, (_, i) => ({
    type: "tool_use" as const,
    id: `toolu_${i}`,
    name: "task",
    input: { description: "d", prompt: "p" },
  }));
  const state = foldEvents([
    e("session.started", startedData()),
    e("user.prompted", { text: "Fan out" }),
    e(
      "model.responded",
      respondedData([
        { type: "tool_use", id: "toolu_read", name: "read_file", input: { path: "a" } },
        ...calls,
      ]),
    ),
  ]);
  const view = state.sessions.byId["s1"];
  assert.ok(view);
  return view;
}

Deno.test("an agent's depth counts the task calls that led to it; the lead and unknown agents are at 0", () => {
  const view = chain();
  assert.equal(subagentDepth(view, "lead"), 0);
  assert.equal(subagentDepth(view, "a"), 1);
  assert.equal(subagentDepth(view, "c"), 3);
  assert.equal(subagentDepth(view, "nobody"), 0);
});

Deno.test("a spawn chain that loops (a forged log) counts as too deep", () => {
  const view = chain();
  const a = view.agents["a"];
  assert.ok(a?.spawn);
  const looped: SessionView = {
    ...view,
    agents: { ...view.agents, a: { ...a, spawn: { ...a.spawn, parent: "c" } } },
  };
  assert.equal(subagentDepth(looped, "c"), Number.POSITIVE_INFINITY);
  assert.match(spawnRefusal(looped, "b", "x") ?? "", /nest at most/);
});

Deno.test("an agent at the depth cap may not start a subagent; one above it may", () => {
  const view = chain();
  assert.equal(MAX_SUBAGENT_DEPTH, 3);
  assert.equal(spawnRefusal(view, "b", "call_x"), null);
  assert.equal(
    spawnRefusal(view, "c", "call_x"),
    "Cannot start a subagent: subagents nest at most 3 deep, and this agent is at that depth. " +
      "Do the task yourself with your other tools",
  );
});

Deno.test("the task calls of one answer after the first ten are refused, counted in the answer's order", () => {
  const view = answerWithTasks(MAX_TASKS_PER_ANSWER + 2);
  assert.equal(spawnRefusal(view, "lead", "toolu_0"), null);
  assert.equal(spawnRefusal(view, "lead", `toolu_${MAX_TASKS_PER_ANSWER - 1}`), null);
  assert.equal(
    spawnRefusal(view, "lead", `toolu_${MAX_TASKS_PER_ANSWER}`),
    "Cannot start a subagent: one answer may start at most 10 subagents, and this is task call " +
      "11 of the answer. Wait for the others' results, then start the rest in a later answer",
  );
  assert.match(spawnRefusal(view, "lead", `toolu_${MAX_TASKS_PER_ANSWER + 1}`) ?? "", /call 12/);
});
