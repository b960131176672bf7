import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import { openJsonlStore } from "../events/jsonl_store.ts";
import { StartPointError } from "../events/start_point.ts";
import { createHarness, type HarnessOptions } from "../core/harness.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { liveEffects } from "../core/runner/live_effects.ts";
import { type CatalogStart, latestCatalog, writeCatalogSnapshot } from "../core/snapshots/mod.ts";
import type { Catalog } from "../core/state/catalog.ts";
import { message, text, toolUse } from "../testing/fake_anthropic.ts";
import type { FakeScriptFn } from "../testing/fake_replies.ts";
import { echo, toolResultCount } from "../testing/scenarios.ts";
import type { Mechanism } from "../core/mechanism.ts";
import { startTestSession } from "../testing/test_session.ts";
import { startedData } from "../testing/event_factory.ts";
import { isAlive, waitForDeath } from "../testing/tool_helpers.ts";
import {
  TALLY_LIMIT,
  tallyEverywhere as tallyMechanism,
  tallyOf,
  workspaceTallyOf,
  workspaceTallyProjection,
} from "../testing/tally/mod.ts";

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

/** A harness over the JSONL log at `path` with the tally mechanism, from `start` when given. */
function tallyHarness(
  path: string,
  workspace: string,
  start?: CatalogStart,
) {
  const options: HarnessOptions = {
    openStore: (onEvent, { eventTypes }) =>
      openJsonlStore(path, {
        clock: () => new Date(),
        onEvent,
        eventTypes,
        ...(start ? { start: start.point } : {}),
      }),
    workspace,
    effects: liveEffects({ apiKey: "sk-test" }),
    mechanisms: [tallyMechanism],
    focus: [],
    ...(start ? { start: { catalog: start.catalog, seq: start.point.seq } } : {}),
  };
  return createHarness(options);
}

Deno.test("a mechanism's workspace-wide slice is folded from every session, kept in the catalog snapshot and restored from it", async () => {
  await using t = await countedSession();
  const path = join(t.workspace, "events.jsonl");
  await Deno.writeTextFile(path, t.events().map((e) => `${JSON.stringify(e)}\n`).join(""));
  const slices = [workspaceTallyProjection];
  // A harness over the log folds the slice from every session's additions.
  const first = await tallyHarness(path, t.workspace);
  const end = { seq: first.state.lastSeq, offset: (await Deno.stat(path)).size };
  const catalog = structuredClone(first.state.catalog);
  await first.close();
  assert.deepEqual(catalog.tally, { total: 7, additions: 2 });

  // A catalog snapshot without the slice (another fold's) is no start for a harness that has it.
  const { tally: _, ...without } = catalog;
  assert.ok(await writeCatalogSnapshot(path, { catalog: without as Catalog, ...end }, new Date()));
  assert.equal(await latestCatalog(path, Infinity, slices), undefined);
  const bare = await latestCatalog(path);
  assert.ok(bare);
  await assert.rejects(tallyHarness(path, t.workspace, bare), StartPointError);

  // One with it holds the slice, and a harness starting from it has it without the events.
  assert.ok(await writeCatalogSnapshot(path, { catalog, ...end }, new Date()));
  const snapshot = await latestCatalog(path, Infinity, slices);
  assert.ok(snapshot);
  assert.deepEqual(snapshot.catalog.tally, { total: 7, additions: 2 });
  snapshot.catalog.tally = { total: 9, additions: 2 }; // seen only if the snapshot is read
  const harness = await tallyHarness(path, t.workspace, snapshot);
  try {
    assert.equal(harness.state.lastSeq, t.events().length);
    assert.deepEqual(workspaceTallyOf(harness.state), { total: 9, additions: 2 });
    // A new session of the workspace sees the other sessions' tally, and adds to it live.
    const session = await harness.startSession({ id: "session-2", ...startedData() });
    const scope = { state: harness.state, session: session.id, agent: session.agent };
    assert.ok(harness.deps.sections(scope).some((s) => s.text === "Workspace total: 9"));
    await harness.store.append([{
      type: "tally.added",
      session: "session-2",
      agent: "lead",
      data: { by: 2, total: 2 },
    }]);
    assert.deepEqual(workspaceTallyOf(harness.state), { total: 11, additions: 3 });
  } finally {
    await harness.close();
  }
});

/** Calls run without asking (tally_add is no read-only tool). */
const BYPASS = { permissionMode: "bypassPermissions" };

/** The tally mechanism, active only in sessions recorded with the `tally` feature. */
const gatedTally: Mechanism = { ...tallyMechanism, feature: "tally" };

Deno.test("a mechanism whose feature a session was not recorded with is not active for it", async () => {
  await using withIt = await startTestSession(countUp, {
    mechanisms: [gatedTally],
    recordSettings: { flags: BYPASS, features: ["tally"] },
  });
  await withIt.session.prompt("count to twelve", run());
  assert.ok(withIt.fake.requests[0]?.body?.tools?.some((tool) => tool.name === "tally_add"));
  assert.equal(tallyOf(withIt.harness.state, "session-1"), 7);
  assert.equal(
    (await replaySession(withIt.events(), { mechanisms: [gatedTally] })).divergence,
    null,
  );

  // Recorded by a rein without it (its features derived from older settings, none named): no
  // tool, no gate, no section; the model's call finds no such tool.
  await using without = await startTestSession(countUp, {
    mechanisms: [gatedTally],
    recordSettings: { flags: BYPASS },
  });
  await without.session.prompt("count to twelve", run());
  for (const request of without.fake.requests) {
    assert.ok(!request.body?.tools?.some((tool) => tool.name === "tally_add"));
  }
  assert.ok(!without.events().some((e) => e.type === "tally.added"));
  assert.ok(
    !without.events().some((e) => e.type === "tool.completed" && e.data.outcome === "denied"),
  );
  const replayed = await replaySession(without.events(), { mechanisms: [gatedTally] });
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
});

Deno.test("Harness.close closes each mechanism once, before the log", async () => {
  const closed: string[] = [];
  const store: { closed: boolean } = { closed: false };
  const closing = (name: string): Mechanism => ({
    name,
    close() {
      closed.push(`${name}${store.closed ? " after the log" : ""}`);
      return Promise.resolve();
    },
  });
  await using t = await startTestSession(echo(), { mechanisms: [closing("a"), closing("b")] });
  const original = t.store.close.bind(t.store);
  t.store.close = async () => {
    store.closed = true;
    await original();
  };
  await t.harness.close();
  assert.deepEqual(closed, ["b", "a"]);
});

Deno.test("Harness.close stops a background job still running, and records no end for it", async () => {
  const script: FakeScriptFn = (request) =>
    toolResultCount(request.body) === 0
      ? message([toolUse("toolu_bg", "bash", { command: "sleep 30", run_in_background: true })])
      : message("Started");
  await using t = await startTestSession(script, {
    recordSettings: { settings: { permissions: { allow: ["Bash"] } }, jobs: { timeoutMs: 60_000 } },
  });
  await t.session.prompt("Start it", run());
  const started = t.events().find((e) => e.type === "job.started");
  assert.ok(started?.type === "job.started");
  assert.ok(await isAlive(started.data.pid));
  await t.harness.close();
  assert.ok(await waitForDeath(started.data.pid), "the job's process outlived the harness");
  assert.ok(!t.events().some((e) => e.type === "job.finished"));
});
