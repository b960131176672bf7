/**
 * The kernel's arrival path on its own, with a mechanism that is not background jobs: an event
 * appended from outside an agent's loop, put before the model with its next request, and fed
 * where the log has it in replay.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Envelope } from "../events/event_types.ts";
import { message, toolUse } from "../testing/fake_anthropic.ts";
import type { FakeScriptFn } from "../testing/fake_replies.ts";
import { lastUserText, toolResultCount } from "../testing/scenarios.ts";
import { startTestSession, type TestSession } from "../testing/test_session.ts";
import type { Mechanism } from "../core/mechanism.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import type { Projection } from "../core/state/projection.ts";
import { sliceOf } from "../core/state/state.ts";
import type { Arrival } from "../core/loop/arrivals.ts";

declare module "../events/event_types.ts" {
  interface ExtensionPayloads {
    /** A bell rang for an agent, outside its loop (test only). */
    "bell.rung": { n: number };
  }
}

/** Per session: the bells rung for each agent (by seq), and the seqs it heard. */
type Bells = Record<string, { rung: { seq: number; agent: string; n: number }[]; heard: number[] }>;

function bellProjection(folds: boolean): Projection<Bells> {
  return {
    key: "bells",
    canHandle: ["bell.rung", "arrival.injected"],
    initial: () => ({}),
    evolve(slice, event: Envelope) {
      const session = slice[event.session] ??= { rung: [], heard: [] };
      if (event.type === "bell.rung") {
        session.rung.push({ seq: event.seq, agent: event.agent, n: event.data.n });
      } else if (folds && event.type === "arrival.injected" && event.data.source === "bell") {
        session.heard.push(event.data.seq);
      }
      return slice;
    },
  };
}

/**
 * A mechanism whose arrival is a bell rung from outside the loop: another use of the path jobs
 * take (cron firings and mail will take it too). `folds: false` forgets to fold its injections.
 */
function bellMechanism(folds = true): Mechanism {
  const projection = bellProjection(folds);
  return {
    name: "bell",
    eventTypes: ["bell.rung"],
    fedTypes: ["bell.rung"],
    projection,
    arrivals: (scope) => {
      const session = sliceOf(scope.state, projection)[scope.session];
      return (session?.rung ?? []).flatMap(({ seq, agent, n }): Arrival[] =>
        agent === scope.agent && !session?.heard.includes(seq)
          ? [{ source: "bell", key: String(seq), seq, text: `The bell rang ${n} times` }]
          : []
      );
    },
  };
}

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

Deno.test("an arrival appended while the model answers is in the next request, after the results, and replays", async () => {
  const late: { t?: TestSession } = {};
  const script: FakeScriptFn = async (request) => {
    const done = toolResultCount(request.body);
    if (done === 0) {
      // Rung by someone else while this answer is on its way.
      const session = late.t as TestSession;
      await session.store.append([{
        type: "bell.rung",
        data: { n: 3 },
        session: "session-1",
        agent: "lead",
      }]);
      return message([toolUse("toolu_1", "bash", { command: "echo hi" })]);
    }
    return message(`heard: ${lastUserText(request.body)}`);
  };
  await using session = await startTestSession(script, { mechanisms: [bellMechanism()] });
  late.t = session;
  await session.session.prompt("listen", run());
  const [first, second] = session.fake.requests;
  assert.doesNotMatch(JSON.stringify(first?.body), /bell rang/);
  const last = second?.body?.messages.at(-1);
  assert.deepEqual(
    Array.isArray(last?.content) ? last.content.map((b) => b.type) : [],
    ["tool_result", "text"],
  );
  assert.equal(session.session.lastText, "heard: The bell rang 3 times");
  const types = session.events().map((e) => e.type);
  assert.deepEqual(types.slice(types.indexOf("bell.rung")), [
    "bell.rung",
    "model.responded",
    "tool.requested",
    "tool.completed",
    "arrival.injected",
    "model.requested",
    "model.responded",
    "turn.ended",
  ]);
  const replayed = await replaySession(session.events(), { mechanisms: [bellMechanism()] });
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
  assert.equal(replayed.matched, session.events().length);
});

Deno.test("an arrival its mechanism never marks delivered fails the turn instead of looping", async () => {
  await using t = await startTestSession(() => message("ok"), {
    mechanisms: [bellMechanism(false)],
  });
  await t.store.append([{
    type: "bell.rung",
    data: { n: 1 },
    session: "session-1",
    agent: "lead",
  }]);
  const result = await t.session.prompt("listen", run());
  assert.equal(result.reason, "failed");
  assert.match(result.message ?? "", /The arrival "2" of bell is still waiting after it was put/);
});
