/**
 * `StageContext.waitFor`: a stage waits for another agent's event (a plan approval), live over
 * the store and served from the log in replay, with the answer coming from another process (fed
 * in replay) or from another agent of the same process (reproduced by its own loop in replay).
 */
import assert from "node:assert/strict";
import type { Envelope } from "../events/event_types.ts";
import type { Mechanism } from "../core/mechanism.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { Runner } from "../core/runner/runner.ts";
import type { Projection } from "../core/state/projection.ts";
import { sliceOf } from "../core/state/state.ts";
import { message } from "../testing/fake_anthropic.ts";
import { startTestSession } from "../testing/test_session.ts";

declare module "../events/event_types.ts" {
  interface ExtensionPayloads {
    /** An agent asked for approval of plan `id`. */
    "approval.asked": { id: string };
    /** Plan `id` was approved. */
    "approval.given": { id: string };
    /** The asking agent got the approval, given by `by`. */
    "approval.seen": { id: string; by: string };
  }
}

const PLAN = "plan-1";

interface Approvals {
  asked: string[];
  given: string[];
  seen: string[];
}

const approvalsProjection: Projection<Approvals> = {
  key: "approvals",
  canHandle: ["approval.asked", "approval.given", "approval.seen"],
  initial: () => ({ asked: [], given: [], seen: [] }),
  evolve(slice, event: Envelope) {
    if (event.type === "approval.asked") slice.asked.push(event.data.id);
    if (event.type === "approval.given") slice.given.push(event.data.id);
    if (event.type === "approval.seen") slice.seen.push(event.data.id);
    return slice;
  },
};

/**
 * The lead asks for approval of its plan before its second turn's model call and waits for it; with
 * `reviews`, the agent "helper" gives it (before its own first model call, once it is asked).
 * `fed`: the approval comes from outside the loops (another process), so replay feeds it.
 */
function approvalMechanism(options: { fed: boolean; reviews: boolean }): Mechanism {
  return {
    name: "approvals",
    eventTypes: ["approval.asked", "approval.given", "approval.seen"],
    projection: approvalsProjection,
    ...(options.fed ? { fedTypes: ["approval.given" as const] } : {}),
    stages: {
      async beforeModel(context) {
        const slice = sliceOf(context.view(), approvalsProjection);
        // The lead asks in its second turn (its first makes the session's agents start in order).
        const lead = context.view().sessions.byId[context.session]?.agents.lead;
        if (context.agent === "lead" && (lead?.rounds ?? 0) >= 1 && !slice.seen.includes(PLAN)) {
          await context.record([{ type: "approval.asked", data: { id: PLAN } }]);
          const given = await context.waitFor(
            "approval.given",
            (event) => event.data.id === PLAN,
            context.signal,
          );
          return [{ type: "approval.seen", data: { id: PLAN, by: given.agent } }];
        }
        if (options.reviews && context.agent === "helper" && !slice.given.includes(PLAN)) {
          if (!slice.asked.includes(PLAN)) {
            await context.waitFor(
              "approval.asked",
              (event) => event.data.id === PLAN,
              context.signal,
            );
          }
          return [{ type: "approval.given", data: { id: PLAN } }];
        }
        return [];
      },
    },
  };
}

const run = (signal: AbortSignal) => ({ signal, maxTurns: null });

/** The session with a first turn of the lead, in which nothing is asked. */
async function startedSession(mechanism: Mechanism) {
  const t = await startTestSession(() => message("Done."), { mechanisms: [mechanism] });
  const first = await t.session.prompt("hello", run(new AbortController().signal));
  assert.equal(first.reason, "completed");
  return t;
}

/** Resolves once `events()` holds one that `found` picks. */
async function until(events: () => Envelope[], found: (e: Envelope) => boolean): Promise<void> {
  while (!events().some(found)) await new Promise((resolve) => setTimeout(resolve, 5));
}

Deno.test("waitFor: a stage waits for an approval another process appends, and replay serves it from the log", async () => {
  const mechanism = approvalMechanism({ fed: true, reviews: false });
  await using t = await startedSession(mechanism);
  const turn = t.session.prompt("carry out the plan", run(new AbortController().signal));
  await until(t.events, (e) => e.type === "approval.asked");
  // Nothing is asked of the model while the approval is awaited.
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(t.fake.requests.length, 1);
  await t.store.append([{
    type: "approval.given",
    data: { id: PLAN },
    session: "session-1",
    agent: "reviewer",
  }]);
  const result = await turn;
  assert.equal(result.reason, "completed");
  const types: string[] = t.events().map((e) => e.type);
  const at = (type: string) => types.indexOf(type);
  assert.ok(at("approval.asked") < at("approval.given"));
  assert.ok(at("approval.given") < at("approval.seen"));
  assert.ok(at("approval.seen") < types.lastIndexOf("model.requested"));
  const seen = t.events().find((e) => e.type === "approval.seen");
  assert.deepEqual(seen?.data, { id: PLAN, by: "reviewer" });

  const replay = await replaySession(t.events(), { mechanisms: [mechanism] });
  assert.equal(replay.divergence, null, JSON.stringify(replay.divergence));
  assert.equal(replay.matched, t.events().length);
});

Deno.test("waitFor: two agents of one process wait for each other's events, and the replay reproduces both", async () => {
  const mechanism = approvalMechanism({ fed: false, reviews: true });
  await using t = await startedSession(mechanism);
  const lead = t.session;
  const helper = lead.sibling("helper");
  const runner = new Runner();
  // The helper starts first and waits to be asked; then the lead asks and waits for the answer.
  const helping = runner.run(helper, ({ signal }) => helper.prompt("review plans", run(signal)));
  await until(t.events, (e) => e.type === "turn.started" && e.agent === "helper");
  const leading = runner.run(lead, ({ signal }) => lead.prompt("carry out the plan", run(signal)));
  const results = await Promise.all([helping.done, leading.done]);
  assert.deepEqual(results.map((r) => r?.reason), ["completed", "completed"]);
  const events = t.events();
  const index = (type: string) => events.findIndex((e) => e.type === type);
  assert.ok(index("approval.asked") < index("approval.given"));
  assert.ok(index("approval.given") < index("approval.seen"));
  assert.equal(events[index("approval.given")]?.agent, "helper");
  assert.deepEqual(events[index("approval.seen")]?.data, { id: PLAN, by: "helper" });

  const replay = await replaySession(events, { mechanisms: [mechanism] });
  assert.equal(replay.divergence, null, JSON.stringify(replay.divergence));
  assert.equal(replay.matched, events.length);
});

Deno.test("waitFor: a wait the person cancels ends the turn cancelled, and replays", async () => {
  const mechanism = approvalMechanism({ fed: true, reviews: false });
  await using t = await startedSession(mechanism);
  const controller = new AbortController();
  const turn = t.session.prompt("carry out the plan", run(controller.signal));
  await until(t.events, (e) => e.type === "approval.asked");
  controller.abort();
  const result = await turn;
  assert.equal(result.reason, "cancelled");
  assert.equal(t.fake.requests.length, 1);

  const replay = await replaySession(t.events(), { mechanisms: [mechanism] });
  assert.equal(replay.divergence, null, JSON.stringify(replay.divergence));
  assert.equal(replay.matched, t.events().length);
});
