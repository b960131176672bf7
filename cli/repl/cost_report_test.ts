import assert from "node:assert/strict";
import { foldEvents } from "../../core/state/state.ts";
import { eventFactory, respondedData, startedData } from "../../testing/event_factory.ts";
import { costReport } from "./cost_report.ts";

Deno.test("/cost sums the session's dollars per model and names a model without a price", () => {
  const e = eventFactory();
  const answer = (usage: { input_tokens: number; output_tokens: number }) => ({
    ...respondedData([{ type: "text", text: "ok" }]),
    usage,
  });
  const state = foldEvents([
    e("session.started", startedData({ model: "claude-sonnet-5" })),
    e("model.responded", answer({ input_tokens: 1_000_000, output_tokens: 0 })),
    e("model.switched", { model: "my-proxy", maxTokens: 1000, from: "claude-sonnet-5" }),
    e("model.responded", answer({ input_tokens: 10, output_tokens: 10 })),
  ]);
  const view = state.sessions.byId["s1"];
  assert.ok(view);
  assert.equal(
    costReport(view),
    [
      "$3.00 · 1,000,010 in, 10 out, 0 cache read (0% of input), 0 cache written",
      "  claude-sonnet-5: $3.00 · 1,000,000 in, 0 out, 0 cache read (0% of input), 0 cache written",
      "  my-proxy: price unknown · 10 in, 10 out, 0 cache read (0% of input), 0 cache written",
    ].join("\n"),
  );
});

Deno.test("/cost counts the teammates' usage and lists the lead's and each teammate's", () => {
  const lead = eventFactory("s1", "lead");
  const alice = eventFactory("s1", "alice");
  let seq = 0;
  const numbered = (event: ReturnType<typeof lead>) => ({ ...event, seq: ++seq });
  const answer = (output_tokens: number) => ({
    ...respondedData([{ type: "text", text: "ok" }]),
    usage: { input_tokens: 1_000_000, output_tokens },
  });
  const state = foldEvents([
    numbered(lead("session.started", startedData({ model: "claude-sonnet-5" }))),
    numbered(lead("model.responded", answer(0))),
    numbered(alice("agent.spawned", {
      parent: "lead",
      callId: "toolu_alice",
      type: "general-purpose",
      description: "reviewer",
      model: "claude-sonnet-5",
      maxTokens: 1000,
      maxTurns: 50,
      teammate: { prompt: "review", role: "reviewer" },
    })),
    numbered(alice("model.responded", answer(0))),
  ]);
  const view = state.sessions.byId["s1"];
  assert.ok(view);
  assert.equal(
    costReport(view),
    [
      "$6.00 · 2,000,000 in, 0 out, 0 cache read (0% of input), 0 cache written",
      "  claude-sonnet-5: $6.00 · 2,000,000 in, 0 out, 0 cache read (0% of input), 0 cache written",
      "  lead: $3.00 · 1,000,000 in, 0 out, 0 cache read (0% of input), 0 cache written",
      "  alice (teammate): $3.00 · 1,000,000 in, 0 out, 0 cache read (0% of input), 0 cache written",
    ].join("\n"),
  );
});
