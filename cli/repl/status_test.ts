import assert from "node:assert/strict";
import type { Usage } from "../../events/event_types.ts";
import { foldEvents } from "../../core/state/state.ts";
import { mainAgentOf } from "../../core/state/sessions.ts";
import { buildRequest } from "../../core/request/request_body.ts";
import { eventFactory, respondedData, startedData } from "../../testing/event_factory.ts";
import { contextReport, turnStatus } from "./status.ts";

function agentAfter(usage: Usage) {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData({ model: "claude-sonnet-5" })),
    e("turn.started", { roundsBefore: 0, maxTurns: null }),
    e("model.responded", { ...respondedData([{ type: "text", text: "ok" }]), usage }),
  ]);
  return mainAgentOf(state.sessions.byId["s1"]!);
}

Deno.test("the status line after a turn shows tokens, the cached share, dollars and the context", () => {
  const agent = agentAfter({
    input_tokens: 2_000,
    output_tokens: 500,
    cache_read_input_tokens: 18_000,
  });
  assert.equal(
    turnStatus(agent),
    "20k in · 500 out · 90% cached · $0.02 · context 21k/200k (10%)",
  );
});

Deno.test("/context splits the window into system prompt, tools, messages and free", () => {
  const agent = agentAfter({ input_tokens: 0, output_tokens: 0 });
  const request = buildRequest({
    model: "claude-sonnet-5",
    maxTokens: 1000,
    system: [{ type: "text", text: "s".repeat(4_000) }],
    tools: [{ name: "t", description: "d".repeat(8_000), input_schema: {} }],
    messages: [{ role: "user", content: [{ type: "text", text: "m".repeat(400) }] }],
  });
  const report = contextReport(request, agent, undefined, 20).split("\n");
  assert.match(report[0] ?? "", /^claude-sonnet-5 · 3\.\dk\/200k tokens \(2%\)$/);
  assert.match(report[1] ?? "", /^\[░{20}\]$/, "a small context barely fills the bar");
  assert.match(report[2] ?? "", /█ system prompt +1\.0k/);
  assert.match(report[3] ?? "", /▓ tools +2\.0k/);
  assert.match(report[5] ?? "", /░ free +19\dk/);
});
