import assert from "node:assert/strict";
import type { AgentSpawned, Envelope, ReinEvent } from "../../events/event_types.ts";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { foldEvents, type State } from "../state/state.ts";
import type { SiblingAgent } from "../tools/sibling_agent.ts";
import type { ToolCallContext } from "../tools/tool.ts";
import { rosterProjection } from "./roster_projection.ts";
import { MAX_LIVE_TEAMMATES, spawnTeammate } from "./spawn_teammate.ts";

function spawned(
  parent: string,
  callId: string,
  teammate?: AgentSpawned["teammate"],
): AgentSpawned {
  return {
    parent,
    callId,
    type: "general-purpose",
    description: "d",
    model: "claude-test",
    maxTokens: 1000,
    maxTurns: 30,
    ...(teammate === undefined ? {} : { teammate }),
  };
}

/** A session whose lead spawned teammate `alice` and subagent `Explore@call_x`. */
function team(): State {
  const events: Envelope[] = [
    eventFactory("s1", "lead")("session.started", startedData()),
    eventFactory("s1", "alice")("agent.spawned", spawned("lead", "call_a", { prompt: "Go" })),
    eventFactory("s1", "Explore@call_x")("agent.spawned", spawned("lead", "call_x")),
  ];
  events.forEach((event, i) => (event.seq = i + 1));
  return foldEvents(events, [], undefined, [rosterProjection]);
}

/** A call of `agent` in `state`, its recorded events kept in `recorded`, by agent. */
function callOf(
  state: State,
  agent: string,
  recorded: [string, ReinEvent][],
  callId = "call_new",
): ToolCallContext {
  return {
    signal: new AbortController().signal,
    session: "s1",
    agent,
    callId,
    cwd: "/w",
    view: () => state,
    sibling: (name) =>
      ({
        record(events: readonly ReinEvent[]) {
          for (const event of events) recorded.push([name, event]);
          return Promise.resolve();
        },
      }) as SiblingAgent,
  };
}

Deno.test("spawnTeammate: teammates and subagents cannot spawn teammates; nothing is recorded", async () => {
  const state = team();
  for (const agent of ["alice", "Explore@call_x"]) {
    const recorded: [string, ReinEvent][] = [];
    const result = await spawnTeammate(
      { name: "bob", prompt: "Go" },
      callOf(state, agent, recorded),
      undefined,
    );
    assert.deepEqual(result, {
      content: "Teammates cannot spawn teammates: only the lead can",
      isError: true,
    });
    assert.deepEqual(recorded, []);
  }
});

Deno.test("spawnTeammate: the lead's spawn is recorded as the teammate's own agent.spawned, then started", async () => {
  const state = team();
  const recorded: [string, ReinEvent][] = [];
  const started: string[] = [];
  const result = await spawnTeammate(
    { name: "alice", prompt: "Review", role: "reviewer", mode: "plan" },
    callOf(state, "lead", recorded),
    (session, name) => {
      // The spawn is recorded before the process starts.
      assert.equal(recorded.length, 1);
      started.push(`${session}/${name}`);
      return Promise.resolve();
    },
  );
  assert.equal(result.isError, undefined);
  assert.match(result.content, /Spawned teammate "alice-2" \("alice" was taken\)/);
  assert.deepEqual(started, ["s1/alice-2"]);
  const [name, event] = recorded[0]!;
  assert.equal(name, "alice-2");
  assert.equal(event.type, "agent.spawned");
  const data = event.data as AgentSpawned;
  assert.deepEqual(data.teammate, { role: "reviewer", mode: "plan", prompt: "Review" });
  assert.equal(data.parent, "lead");
  assert.equal(data.callId, "call_new");
});

Deno.test("spawnTeammate: the same call run again (replay, a continued turn) records and starts nothing", async () => {
  const state = team();
  const recorded: [string, ReinEvent][] = [];
  const result = await spawnTeammate(
    { name: "alice", prompt: "Go" },
    callOf(state, "lead", recorded, "call_a"),
    () => Promise.reject(new Error("started again")),
  );
  assert.equal(result.content.startsWith('Spawned teammate "alice",'), true);
  assert.deepEqual(recorded, []);
});

Deno.test("spawnTeammate: at most MAX_LIVE_TEAMMATES live teammates; a stopped one makes room", async () => {
  const lead = eventFactory("s1", "lead");
  const events: Envelope[] = [lead("session.started", startedData())];
  for (let i = 0; i < MAX_LIVE_TEAMMATES; i++) {
    events.push(
      eventFactory("s1", `t${i}`)("agent.spawned", spawned("lead", `c${i}`, { prompt: "Go" })),
    );
  }
  events.forEach((event, i) => (event.seq = i + 1));
  const full = foldEvents(events, [], undefined, [rosterProjection]);
  const recorded: [string, ReinEvent][] = [];
  const refused = await spawnTeammate(
    { name: "one-more", prompt: "Go" },
    callOf(full, "lead", recorded),
    undefined,
  );
  assert.equal(refused.isError, true);
  assert.match(
    refused.content,
    /Cannot spawn another teammate: 16 are live \(t0, t1, .*at most 16/,
  );
  assert.deepEqual(recorded, []);
  const stopped = eventFactory("s1", "t0")("agent.stopped", { reason: "shutdown" });
  stopped.seq = events.length + 1;
  const room = foldEvents([...events, stopped], [], undefined, [rosterProjection]);
  const spawnedNow = await spawnTeammate(
    { name: "one-more", prompt: "Go" },
    callOf(room, "lead", recorded),
    undefined,
  );
  assert.equal(spawnedNow.isError, undefined, spawnedNow.content);
  assert.equal(recorded.length, 1);
});

/** {@link team} with host `b` joined, and the lead working in `packages/api`. */
function teamWithHost(): State {
  const events: Envelope[] = [
    eventFactory("s1", "lead")("session.started", startedData()),
    eventFactory("host:b", "host")("host.joined", { name: "b", folder: "/w/b", machine: null }),
  ];
  events.forEach((event, i) => (event.seq = i + 1));
  return foldEvents(events, [], undefined, [rosterProjection]);
}

const hostB = { live: (session: string) => Promise.resolve(session === "host:b") };

Deno.test("spawnTeammate: placed on a live host, the teammate is recorded with teammate.host and no folder of the lead's; the lead's process does not start it", async () => {
  const recorded: [string, ReinEvent][] = [];
  const result = await spawnTeammate(
    { name: "bob", prompt: "Go", host: "b" },
    callOf(teamWithHost(), "lead", recorded),
    () => Promise.reject(new Error("started by the lead")),
    hostB,
  );
  assert.equal(result.isError, undefined, result.content);
  assert.match(
    result.content,
    /^Spawned teammate "bob", working on its prompt in its own process on host b\./,
  );
  const [name, event] = recorded[0]!;
  assert.equal(name, "bob");
  const data = event.data as AgentSpawned;
  assert.deepEqual(data.teammate, { prompt: "Go", host: "b" });
  assert.equal(data.cwd, undefined);
});

Deno.test("spawnTeammate: an unknown host, and any host on a log no other machine shares, is refused; nothing is recorded", async () => {
  const recorded: [string, ReinEvent][] = [];
  const unknown = await spawnTeammate(
    { name: "bob", prompt: "Go", host: "z" },
    callOf(teamWithHost(), "lead", recorded),
    undefined,
    hostB,
  );
  assert.deepEqual(unknown, { content: 'Unknown host "z": the live hosts are b', isError: true });
  const unshared = await spawnTeammate(
    { name: "bob", prompt: "Go", host: "b" },
    callOf(teamWithHost(), "lead", recorded),
    undefined,
    undefined,
  );
  assert.equal(unshared.isError, true);
  assert.match(
    unshared.content,
    /^Cannot place a teammate on host "b": this session's log is a file/,
  );
  assert.deepEqual(recorded, []);
});
