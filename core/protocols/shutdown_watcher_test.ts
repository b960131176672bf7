import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope, NewEvent, ReinEvent } from "../../events/event_types.ts";
import { type JsonlStore, openJsonlStore } from "../../events/jsonl_store.ts";
import { evolve, initialState, type State } from "../state/state.ts";
import { PROJECTIONS, teammateSpawned } from "./_protocol_fixture.ts";
import { requestShutdown, respondShutdown } from "./protocol_deciders.ts";
import { sessionProtocols } from "./protocols_of.ts";
import { shutdownTimeoutMs, ShutdownWatcher } from "./shutdown_watcher.ts";

/** A process of the workspace: its own store on the shared log file and its own folded state. */
interface Writer {
  store: JsonlStore;
  state: State;
}

async function writer(path: string): Promise<Writer> {
  const state = initialState(PROJECTIONS);
  const store = await openJsonlStore(path, {
    clock: () => new Date("2026-11-29T06:00:00.000Z"),
    onEvent: (event: Envelope) => void evolve(state, event, PROJECTIONS),
  });
  return { store, state };
}

const stamped = (agent: string, events: readonly ReinEvent[] = []): NewEvent[] =>
  events.map((event) => ({ ...event, session: "s1", agent }) as NewEvent);

/**
 * A log with the lead's session, teammate alice and the lead's pending shutdown request
 * `toolu_req`, and two processes over it (the lead's, alice's).
 */
async function asked(): Promise<{ lead: Writer; alice: Writer; path: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "rein-protocols-" });
  const path = join(dir, "log.jsonl");
  const lead = await writer(path);
  await lead.store.append([
    {
      type: "session.started",
      session: "s1",
      agent: "lead",
      data: {
        model: "claude-test",
        workspace: dir,
        startedAt: "2026-11-29T06:00:00.000Z",
        maxTokens: 1000,
        platform: "linux x86_64",
      },
    },
    { type: "agent.spawned", session: "s1", agent: "alice", data: teammateSpawned() },
  ]);
  await lead.store.appendDecided(() =>
    stamped(
      "lead",
      requestShutdown(lead.state, { session: "s1", agent: "lead", callId: "toolu_req" }, {
        to: "alice",
      }).events,
    )
  );
  const alice = await writer(path);
  return {
    lead,
    alice,
    path,
    async [Symbol.asyncDispose]() {
      await lead.store.close();
      await alice.store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** The run {@link asked} gives. */
type Asked = Awaited<ReturnType<typeof asked>>;

/** Alice answers the lead's request `answer`, in her own process. */
async function aliceAnswers(t: Asked, answer: { approve: boolean; reason?: string }) {
  await t.alice.store.appendDecided(() =>
    stamped(
      "alice",
      respondShutdown(
        t.alice.state,
        { session: "s1", agent: "alice", callId: "toolu_yes" },
        answer,
      ).events,
    )
  );
}

/** Alice's turn ends, in her own process. */
async function aliceEndsTurn(t: Asked) {
  await t.alice.store.append([{
    type: "turn.ended",
    session: "s1",
    agent: "alice",
    data: { reason: "completed", rounds: 1 },
  }]);
}

/** The lead's watcher, with a timeout of `timeoutMs`. */
function leadWatcher(t: Asked, timeoutMs: number): ShutdownWatcher {
  return new ShutdownWatcher({
    log: () => t.lead.store,
    view: () => t.lead.state,
    clock: () => new Date(),
    timeoutMs,
  });
}

/** The events of the log file, read by a fresh reader. */
async function logged(path: string): Promise<Envelope[]> {
  const events: Envelope[] = [];
  const store = await openJsonlStore(path, {
    clock: () => new Date(),
    onEvent: (e) => void events.push(e),
  });
  await store.close();
  return events;
}

Deno.test("two answers to one shutdown request decided at once by two processes: exactly one is recorded", async () => {
  await using t = await asked();
  const answer = (w: Writer, callId: string, approve: boolean) =>
    w.store.appendDecided(() =>
      stamped(
        "alice",
        respondShutdown(w.state, { session: "s1", agent: "alice", callId }, {
          approve,
          ...(approve ? {} : { reason: "tests still running" }),
        }).events,
      )
    );
  const [first, second] = await Promise.all([
    answer(t.lead, "toolu_yes", true),
    answer(t.alice, "toolu_no", false),
  ]);
  // The one that took the lock second saw the first's answer and decided nothing.
  assert.equal([first, second].filter((appended) => appended.length > 0).length, 1);
  const answers = (await logged(t.path)).filter((event) => event.type === "protocol.answered");
  assert.equal(answers.length, 1);
  assert.equal(
    sessionProtocols(t.lead.state, "s1").byId["toolu_req"]?.status,
    sessionProtocols(t.alice.state, "s1").byId["toolu_req"]?.status,
  );
});

Deno.test("the lead's watcher expires an unanswered shutdown forced, with its clock reading, and stops the teammate", async () => {
  await using t = await asked();
  const watcher = new ShutdownWatcher({
    log: () => t.lead.store,
    view: () => t.lead.state,
    clock: () => new Date("2026-11-29T06:00:30.000Z"),
    timeoutMs: 20,
  });
  assert.equal(await watcher.watch("s1", "toolu_req"), "expired");
  const tail = (await logged(t.path)).slice(-2);
  assert.deepEqual(tail.map((event) => [event.type, event.agent, event.data]), [
    ["protocol.expired", "lead", {
      id: "toolu_req",
      timeoutMs: 20,
      at: "2026-11-29T06:00:30.000Z",
      forced: true,
    }],
    ["agent.stopped", "alice", { reason: "shutdown", forced: true }],
  ]);
  // The teammate's late answer, decided under the lock on the caught-up state, loses.
  let late = "";
  const appended = await t.alice.store.appendDecided(() => {
    const result = respondShutdown(
      t.alice.state,
      { session: "s1", agent: "alice", callId: "late" },
      { approve: true, request_id: "toolu_req" },
    );
    late = result.content;
    return result.isError ? [] : stamped("alice", result.events);
  });
  assert.deepEqual(appended, []);
  assert.match(late, /no longer pending: it was expired/);
});

Deno.test("the lead's watcher appends nothing when the teammate answers in time", async () => {
  await using t = await asked();
  const watcher = leadWatcher(t, 60_000);
  const watched = watcher.watch("s1", "toolu_req");
  await aliceAnswers(t, { approve: false, reason: "busy" });
  assert.equal(await watched, "answered");
  const types = (await logged(t.path)).map((event) => event.type);
  assert.equal(types.includes("protocol.expired"), false);
  watcher.close();
});

Deno.test("an approved shutdown: the lead's watcher records the teammate's stop once its turn has ended; past the timeout without that end, forced", async () => {
  for (const turnEnds of [true, false]) {
    await using t = await asked();
    const watcher = leadWatcher(t, turnEnds ? 60_000 : 30);
    const watched = watcher.watch("s1", "toolu_req");
    await aliceAnswers(t, { approve: true });
    if (turnEnds) {
      await aliceEndsTurn(t);
    }
    assert.equal(await watched, "answered");
    const events = await logged(t.path);
    const stops = events.filter((event) => event.type === "agent.stopped");
    assert.deepEqual(stops.map((event) => [event.agent, event.data]), [
      ["alice", turnEnds ? { reason: "shutdown" } : { reason: "shutdown", forced: true }],
    ]);
    assert.equal(events.at(-1)?.type, "agent.stopped");
    // Watching it again (a resumed lead) records nothing more.
    const again = leadWatcher(t, 30);
    assert.equal(await again.watch("s1", "toolu_req"), "answered");
    assert.equal((await logged(t.path)).length, events.length);
  }
});

Deno.test("a resumed lead watching a shutdown approved already waits for the end of the turn that answered it, not of one that ended before the answer", async () => {
  await using t = await asked();
  // Alice's turn under way when the request came ends; her next one answers it and is still on.
  await aliceEndsTurn(t);
  await aliceAnswers(t, { approve: true });
  await t.lead.store.catchUp();
  assert.equal(sessionProtocols(t.lead.state, "s1").byId["toolu_req"]?.status, "approved");
  const watcher = leadWatcher(t, 60_000);
  const watched = watcher.watch("s1", "toolu_req");
  // Nothing is recorded while the answering turn goes on.
  const early = await Promise.race([
    watched,
    new Promise((resolve) => setTimeout(() => resolve("waiting"), 200)),
  ]);
  assert.equal(early, "waiting");
  assert.equal((await logged(t.path)).some((event) => event.type === "agent.stopped"), false);
  await aliceEndsTurn(t);
  assert.equal(await watched, "answered");
  const stops = (await logged(t.path)).filter((event) => event.type === "agent.stopped");
  assert.deepEqual(stops.map((event) => [event.agent, event.data]), [
    ["alice", { reason: "shutdown" }],
  ]);
  watcher.close();
});

Deno.test("REIN_SHUTDOWN_TIMEOUT_MS: a whole number of ms, else 30 s", () => {
  assert.equal(shutdownTimeoutMs(undefined), 30_000);
  assert.equal(shutdownTimeoutMs(" 1500 "), 1500);
  assert.equal(shutdownTimeoutMs("soon"), 30_000);
  assert.equal(shutdownTimeoutMs("-1"), 30_000);
});
