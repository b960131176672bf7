import assert from "node:assert/strict";
import type { Envelope } from "../events/event_types.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import type { Mechanism } from "../core/mechanism.ts";
import { Runner } from "../core/runner/runner.ts";
import type { AgentView } from "../core/state/sessions.ts";
import { message, text, toolUse } from "../testing/fake_anthropic.ts";
import type { FakeScriptFn } from "../testing/fake_replies.ts";
import { firstUserText, toolResultCount } from "../testing/scenarios.ts";
import { startTestSession } from "../testing/test_session.ts";

/**
 * Each agent's conversation starts with its own task; the fake answers it with two slow bash
 * rounds, then "<task> done". Which agent asks is read from the conversation, so the two agents'
 * requests can arrive in any order.
 */
const twoSlowRounds: FakeScriptFn = (request) => {
  const task = firstUserText(request.body?.messages ?? []);
  const done = toolResultCount(request.body);
  if (done >= 2) return message(`${task} done`);
  return message([
    text(`${task}: step ${done + 1}`),
    toolUse(`toolu_${task}_${done + 1}`, "bash", { command: `sleep 0.2; echo ${task}` }),
  ]);
};

Deno.test("two agents of one session run rounds concurrently in one process", async () => {
  await using t = await startTestSession(twoSlowRounds);
  const lead = t.session;
  const helper = lead.sibling("helper");
  const runner = new Runner();
  const runs = [
    runner.run(lead, ({ signal }) => lead.prompt("lead", { signal, maxTurns: null })),
    runner.run(helper, ({ signal }) => helper.prompt("helper", { signal, maxTurns: null })),
  ];
  assert.equal(runner.active.length, 2);
  assert.throws(
    () => runner.run(helper, () => Promise.resolve(null)),
    /Agent "helper" of session session-1 is already running/,
  );
  const results = await Promise.all(runs.map((run) => run.done));
  assert.deepEqual(results.map((r) => r?.reason), ["completed", "completed"]);
  assert.equal(lead.lastText, "lead done");
  assert.equal(helper.lastText, "helper done");

  // The rounds overlapped: the helper's first tool call started before the lead's turn ended.
  const events = t.events();
  const leadEnd = events.findIndex((e) => e.agent === "lead" && e.type === "turn.ended");
  const helperCall = events.findIndex((e) => e.agent === "helper" && e.type === "tool.requested");
  assert.ok(helperCall < leadEnd, "the helper ran while the lead's turn was under way");

  const view = t.harness.state.sessions.byId["session-1"];
  assert.ok(view);
  assert.equal(view.mainAgent, "lead");
  assert.deepEqual(Object.keys(view.agents).sort(), ["helper", "lead"]);
  for (const name of ["lead", "helper"]) {
    const agent: AgentView | undefined = view.agents[name];
    assert.ok(agent);
    assert.equal(agent.rounds, 3);
    assert.equal(agent.status, "idle");
    assert.equal(agent.messages.length, 6, `${name}: prompt, 2 × (call, result), answer`);
  }
  const perAgent = Object.values(view.agents).reduce((sum, a) => sum + a.usage.output_tokens, 0);
  assert.equal(perAgent, view.usage.output_tokens, "the session's usage is its agents' sum");
  assert.equal(view.firstPrompt, "lead", "the session's first prompt is its main agent's");
});

Deno.test("a session whose agents ran at once replays and verifies agent by agent", async () => {
  await using t = await startTestSession(twoSlowRounds);
  const helper = t.session.sibling("helper");
  const signal = new AbortController().signal;
  await Promise.all([
    t.session.prompt("lead", { signal, maxTurns: null }),
    helper.prompt("helper", { signal, maxTurns: null }),
  ]);
  const recorded: Envelope[] = t.events();
  assert.ok(new Set(recorded.map((e) => e.agent)).size === 2);
  const result = await replaySession(recorded);
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
  assert.equal(result.matched, recorded.length);
});

Deno.test("a mechanism can narrow one agent's tools without touching the others'", async () => {
  const readOnlyHelper: Mechanism = {
    name: "read-only helper",
    filterTools: (scope, tools) =>
      scope.agent === "helper" ? tools.filter((tool) => tool.readOnly) : tools,
  };
  await using t = await startTestSession(twoSlowRounds, { mechanisms: [readOnlyHelper] });
  const helper = t.session.sibling("helper");
  const signal = new AbortController().signal;
  await Promise.all([
    t.session.prompt("lead", { signal, maxTurns: 1 }),
    helper.prompt("helper", { signal, maxTurns: 1 }),
  ]);
  const toolsOf = (task: string) =>
    t.fake.requests.find((r) => firstUserText(r.body?.messages ?? []) === task)?.body?.tools
      ?.map((tool) => tool.name);
  assert.deepEqual(toolsOf("helper"), ["read_file", "glob", "grep"]);
  assert.equal(toolsOf("lead")?.length, 6);
  const refused = t.events().find((e) => e.agent === "helper" && e.type === "tool.completed");
  assert.ok(refused?.type === "tool.completed");
  assert.match(
    refused.data.content,
    /^Unknown tool "bash"\. Available tools: read_file, glob, grep/,
  );
});

Deno.test("an agent whose process died mid-call never runs that call again, however it is reopened", async () => {
  await using t = await startTestSession(twoSlowRounds);
  const { effects } = t.harness.deps;
  const live = effects.runCall;
  effects.runCall = () => new Promise(() => {}); // the process dies while the call runs
  const helper = t.session.sibling("helper");
  void helper.prompt("helper", { signal: new AbortController().signal, maxTurns: null });
  while (!t.events().some((e) => e.agent === "helper" && e.type === "tool.requested")) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  effects.runCall = live;
  // A new process prompts the helper without a resume: the open call is closed, not re-run.
  const result = await t.reopen().sibling("helper").prompt("helper again", {
    signal: new AbortController().signal,
    maxTurns: 1,
  });
  assert.equal(result.reason, "max_turns");
  const first = t.events().filter((e) =>
    e.type === "tool.completed" && e.data.callId === "toolu_helper_1"
  );
  assert.equal(first.length, 1);
  assert.ok(first[0]?.type === "tool.completed");
  assert.equal(first[0].data.outcome, "interrupted");
});
