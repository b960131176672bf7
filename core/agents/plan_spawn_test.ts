import assert from "node:assert/strict";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { foldEvents } from "../state/state.ts";
import { agentOf } from "../state/sessions.ts";
import { BUILT_IN_AGENTS } from "./built_in_agents.ts";
import { childAgentName, DEFAULT_SUBAGENT_TURNS, planSpawn } from "./plan_spawn.ts";

function parent() {
  const event = eventFactory();
  const state = foldEvents([event("session.started", startedData({ model: "claude-test" }))]);
  const view = state.sessions.byId[Object.keys(state.sessions.byId)[0] ?? ""];
  assert.ok(view);
  return agentOf(view, view.mainAgent);
}

Deno.test("a built-in type inherits the parent's model and limit and gets the default turn cap", () => {
  const lead = parent();
  const spawned = planSpawn(BUILT_IN_AGENTS[1]!, lead, { callId: "toolu_1", description: "look" });
  assert.equal(spawned.type, "Explore");
  assert.equal(spawned.parent, lead.name);
  assert.equal(spawned.model, lead.model);
  assert.equal(spawned.maxTokens, lead.maxTokens);
  assert.equal(spawned.maxTurns, DEFAULT_SUBAGENT_TURNS);
  assert.deepEqual(spawned.tools, ["read_file", "glob", "grep"]);
  assert.equal(spawned.path, undefined);
  assert.match(spawned.systemPrompt ?? "", /read-only/);
});

Deno.test("a definition's model alias is resolved and its maxTurns and tools are taken", () => {
  const spawned = planSpawn(
    {
      name: "fast",
      description: "d",
      model: "haiku",
      maxTurns: 3,
      tools: ["Read", "Bash"],
      systemPrompt: "",
      path: "/ws/.claude/agents/fast.md",
    },
    parent(),
    { callId: "toolu_2", description: "quick" },
  );
  assert.match(spawned.model, /^claude-haiku/);
  assert.equal(spawned.maxTurns, 3);
  assert.deepEqual(spawned.tools, ["read_file", "bash"]);
  assert.equal(spawned.systemPrompt, undefined);
  assert.equal(childAgentName("fast", "toolu_2"), "fast@toolu_2");
});
