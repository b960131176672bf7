import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { foldEvents } from "../state/state.ts";
import { hostSession } from "./host_plan.ts";
import { rosterProjection } from "./roster_projection.ts";
import { renderTeamEvent, teammateLine } from "./team_render.ts";
import { placeTeammate } from "./teammate_hosts.ts";
import { plainText } from "../state/rendered_line.ts";
import { rosterOf } from "./roster.ts";

/** A log where hosts b (live), c (lease lapsed) and d (left) joined. */
function hostsJoined() {
  const events: Envelope[] = [
    eventFactory("s1", "lead")("session.started", startedData()),
    ...["b", "c", "d"].map((name) =>
      eventFactory(hostSession(name), "host")("host.joined", {
        name,
        folder: `/w/${name}`,
        machine: null,
      })
    ),
    eventFactory(hostSession("d"), "host")("host.left", { reason: "stopped" }),
  ];
  events.forEach((event, i) => (event.seq = i + 1));
  return foldEvents(events, [], undefined, [rosterProjection]);
}

const live = { live: (session: string) => Promise.resolve(session === hostSession("b")) };

Deno.test("placeTeammate: a live host is where the teammate goes", async () => {
  assert.deepEqual(await placeTeammate("b", hostsJoined(), live), { host: "b" });
});

Deno.test("placeTeammate: an unknown host, or one whose lease lapsed, is refused naming it and the live hosts", async () => {
  assert.deepEqual(await placeTeammate("z", hostsJoined(), live), {
    error: 'Unknown host "z": the live hosts are b',
  });
  assert.deepEqual(await placeTeammate("c", hostsJoined(), live), {
    error: 'Host "c" is not running (its lease lapsed): the live hosts are b',
  });
  const none = { live: () => Promise.resolve(false) };
  assert.deepEqual(await placeTeammate("b", hostsJoined(), none), {
    error: 'Host "b" is not running (its lease lapsed): no host is live (start rein host ' +
      "--store postgres://… on the other machine)",
  });
  // A lease that cannot be read is no live host.
  const failing = { live: () => Promise.reject(new Error("connection lost")) };
  assert.equal("error" in await placeTeammate("b", hostsJoined(), failing), true);
});

Deno.test("placeTeammate: on a log no other machine shares (no hosts), every host is refused", async () => {
  const placed = await placeTeammate("b", hostsJoined(), undefined);
  assert.ok("error" in placed);
  assert.match(placed.error, /^Cannot place a teammate on host "b": this session's log is a file/);
});

Deno.test("render: a host's joining and leaving, a teammate spawned on a host; the roster line names the host", () => {
  const state = hostsJoined();
  const joined = eventFactory(hostSession("b"), "host")("host.joined", {
    name: "b",
    folder: "/w/b",
    machine: null,
  });
  assert.equal(
    plainText(renderTeamEvent(joined)![0]!),
    "⚑ host b joined (/w/b): it runs teammates placed on it",
  );
  const left = eventFactory(hostSession("b"), "host")("host.left", { reason: "stopped" });
  assert.equal(plainText(renderTeamEvent(left)![0]!), "⚑ host b left");
  const spawn = eventFactory("s1", "bob")("agent.spawned", {
    parent: "lead",
    callId: "c1",
    type: "general-purpose",
    description: "bob",
    model: "claude-test",
    maxTokens: 1000,
    maxTurns: 30,
    teammate: { prompt: "Go", host: "b" },
  });
  spawn.seq = 10;
  assert.equal(plainText(renderTeamEvent(spawn)![0]!), "⚑ teammate bob spawned on host b");
  const entry = rosterOf(foldEvents([spawn], [], undefined, [rosterProjection])).byKey["s1/bob"]!;
  assert.match(teammateLine(entry), /^bob: working, claude-test, on host b$/);
  assert.equal(Object.keys(rosterOf(state).hosts).length, 3);
});
