import assert from "node:assert/strict";
import type { Envelope } from "../events/event_types.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { message, text, toolUse } from "../testing/fake_anthropic.ts";
import type { FakeScriptFn } from "../testing/fake_replies.ts";
import { echo, toolResultCount } from "../testing/scenarios.ts";
import type { Mechanism } from "../core/mechanism.ts";
import { startTestSession } from "../testing/test_session.ts";
import { TALLY_LIMIT, tallyMechanism, tallyOf } from "../testing/toy_mechanism.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

/** Adds 3, then 4, then 5 (which would pass the limit), then answers. */
const countUp: FakeScriptFn = (request) => {
  const done = toolResultCount(request.body);
  const by = [3, 4, 5][done];
  if (by === undefined) return message("Counted.");
  return message([text(`Adding ${by}.`), toolUse(`toolu_tally_${done + 1}`, "tally_add", { by })]);
};

async function countedSession() {
  const t = await startTestSession(countUp, { mechanisms: [tallyMechanism] });
  const result = await t.session.prompt("count to twelve", run());
  assert.equal(result.reason, "completed");
  return t;
}

Deno.test("a mechanism registered through the composition root alone adds its event, projection, tool, section and gate", async () => {
  await using t = await countedSession();
  const added = t.events().filter((e) => e.type === "tally.added");
  assert.deepEqual(added.map((e) => e.type === "tally.added" && e.data), [
    { by: 3, total: 3 },
    { by: 4, total: 7 },
  ]);
  // Each tally.added is recorded in the batch of its call's result, just before it.
  for (const event of added) {
    const next = t.events()[t.events().indexOf(event) + 1];
    assert.equal(next?.type, "tool.completed");
  }
  const refused = t.events().find((e) =>
    e.type === "tool.completed" && e.data.callId === "toolu_tally_3"
  );
  assert.ok(refused?.type === "tool.completed");
  assert.equal(refused.data.outcome, "denied");
  assert.equal(
    refused.data.content,
    `Permission denied: the tally would pass ${TALLY_LIMIT} (it is 7)`,
  );
  assert.ok(
    !t.events().some((e) => e.type === "tool.requested" && e.data.callId === "toolu_tally_3"),
    "a refused call records no intent",
  );
  assert.equal(tallyOf(t.harness.state, "session-1"), 7);

  const [first, , third] = t.fake.requests;
  assert.ok(first?.body?.tools?.some((tool) => tool.name === "tally_add"));
  const systemOf = (body: typeof first) => JSON.stringify(body?.body?.system);
  assert.doesNotMatch(systemOf(first), /Tally so far/);
  assert.match(systemOf(third), /Tally so far: 7/);
  assert.match(systemOf(first), /Use tally_add to count things/);
});

Deno.test("a mechanism's decider tool, events and gate replay and verify", async () => {
  await using t = await countedSession();
  const result = await replaySession(t.events(), { mechanisms: [tallyMechanism] });
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
  assert.equal(result.matched, t.events().length);
});

Deno.test("replay re-runs a decider tool, so an edited decision is caught at its event", async () => {
  await using t = await countedSession();
  const events = structuredClone(t.events());
  const second = events.filter((e) => e.type === "tally.added")[1] as Envelope & {
    type: "tally.added";
  };
  second.data.total = 70;
  const result = await replaySession(events, { mechanisms: [tallyMechanism] });
  assert.equal(result.divergence?.seq, second.seq);
  assert.match(result.divergence?.reason ?? "", /a different tally\.added/);
});

Deno.test("replaying without the mechanism diverges at the first request, whose tools differ", async () => {
  await using t = await countedSession();
  const result = await replaySession(t.events());
  const firstRequest = t.events().find((e) => e.type === "model.requested");
  assert.equal(result.divergence?.seq, firstRequest?.seq);
});

/** A Stop-hook-like mechanism: the first time the lead answers, it asks for one more round. */
const onceMore: Mechanism = {
  name: "once more",
  stages: {
    afterModel(_context, _reply, continued) {
      if (continued > 0) return Promise.resolve({ events: [], continueTurn: false });
      return Promise.resolve({
        events: [{ type: "user.prompted", data: { text: "Check your answer once more." } }],
        continueTurn: true,
      });
    },
  },
};

Deno.test("an afterModel stage can continue the turn, and replay reproduces it", async () => {
  await using t = await startTestSession(echo(), { mechanisms: [onceMore] });
  const result = await t.session.prompt("hello", run());
  assert.deepEqual(result, { reason: "completed", rounds: 2 });
  assert.equal(t.session.lastText, "You said: Check your answer once more.");
  const replayed = await replaySession(t.events(), { mechanisms: [onceMore] });
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
});
