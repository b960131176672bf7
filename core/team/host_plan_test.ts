import assert from "node:assert/strict";
import { eventFactory } from "../../testing/event_factory.ts";
import {
  hostSession,
  type HostWorld,
  insideFolder,
  isHostEvent,
  lostTeammates,
  placedSessions,
  planHost,
} from "./host_plan.ts";
import { emptyRoster, type Roster, rosterKey, type TeammateEntry } from "./roster_projection.ts";
import { MAX_LIVE_TEAMMATES } from "./spawn_teammate.ts";

/** A roster entry of `name` in `session`, placed on `host`. */
function entry(
  session: string,
  name: string,
  host: string | null,
  more: Partial<TeammateEntry> = {},
): TeammateEntry {
  return {
    session,
    name,
    role: null,
    model: "claude-test",
    mode: null,
    status: "idle",
    cwd: null,
    host,
    process: null,
    starts: 1,
    turns: 1,
    turnOpen: false,
    exits: [],
    usage: {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
    usageByModel: {},
    lastAction: null,
    spawnedAt: "2026-01-01T00:00:00.000Z",
    ...more,
  };
}

function rosterOf(...entries: TeammateEntry[]): Roster {
  const roster = emptyRoster();
  for (const item of entries) {
    const key = rosterKey(item.session, item.name);
    roster.byKey[key] = item;
    roster.order.push(key);
  }
  return roster;
}

function world(roster: Roster, more: Partial<HostWorld> = {}): HostWorld {
  return {
    roster,
    leads: { s1: "lead", s2: "lead" },
    host: "b",
    running: new Set(),
    liveLeads: new Set(["s1", "s2"]),
    ...more,
  };
}

Deno.test("planHost: a live teammate placed on this host whose lead is live is started (its next start); others' and the lead's own are not", () => {
  const roster = rosterOf(
    entry("s1", "bob", "b", { starts: 2 }),
    entry("s1", "alice", null),
    entry("s1", "carol", "c"),
    entry("s2", "dave", "b", { status: "working", starts: 0 }),
  );
  assert.deepEqual(planHost(world(roster)), {
    start: [
      { session: "s1", name: "bob", restart: 2 },
      { session: "s2", name: "dave", restart: 0 },
    ],
    stop: [],
    refused: [],
  });
  assert.deepEqual(placedSessions(roster, "b"), ["s1", "s2"]);
  assert.deepEqual(placedSessions(roster, "c"), ["s1"]);
});

Deno.test("planHost: one running and wanted is left alone; one whose lead's lease lapsed, stopped or crashed in the log, or unknown, is stopped", () => {
  const roster = rosterOf(
    entry("s1", "bob", "b"),
    entry("s2", "dave", "b"),
    entry("s1", "erin", "b", { status: "stopped" }),
    entry("s1", "fay", "b", { status: "crashed" }),
  );
  const running = new Set(["s1/bob", "s2/dave", "s1/erin", "s1/fay", "s3/ghost"]);
  assert.deepEqual(planHost(world(roster, { running, liveLeads: new Set(["s1"]) })), {
    start: [],
    stop: [
      { session: "s2", name: "dave" },
      { session: "s1", name: "erin" },
      { session: "s1", name: "fay" },
      { session: "s3", name: "ghost" },
    ],
    refused: [],
  });
});

Deno.test("planHost: a teammate whose lead is not live, or whose session is not in the log, is not started; stopped and crashed ones neither", () => {
  const roster = rosterOf(
    entry("s1", "bob", "b"),
    entry("s9", "dave", "b"),
    entry("s2", "erin", "b", { status: "stopped" }),
    entry("s2", "fay", "b", { status: "crashed" }),
  );
  assert.deepEqual(
    planHost(world(roster, { liveLeads: new Set(["s2", "s9"]) })),
    { start: [], stop: [], refused: [] },
  );
  // A resumed lead: its lease is held again, its teammate comes back.
  assert.deepEqual(planHost(world(roster)).start, [{ session: "s1", name: "bob", restart: 1 }]);
});

Deno.test("planHost: what a hostile writer could put in the log is refused: a name or session id read as a flag, the lead's name, a folder outside the working copy", () => {
  const roster = rosterOf(
    entry("s1", "--allow-all", "b"),
    entry("--inspect=0.0.0.0:9229", "bob", "b"),
    entry("s1", "team-lead", "b"),
    entry("s1", "lead", "b"),
    entry("s1", "up", "b", { cwd: "../../etc" }),
    entry("s1", "root", "b", { cwd: "/etc" }),
    entry("s1", "inside", "b", { cwd: ".claude/worktrees/x" }),
  );
  const plan = planHost(
    world(roster, {
      leads: { s1: "lead", "--inspect=0.0.0.0:9229": "lead" },
      liveLeads: new Set(["s1", "--inspect=0.0.0.0:9229"]),
    }),
  );
  assert.deepEqual(plan.start, [{ session: "s1", name: "inside", restart: 1 }]);
  assert.deepEqual(plan.refused.map((item) => [item.name, item.why]), [
    ["--allow-all", '"--allow-all" is no teammate name'],
    ["bob", 'its session id "--inspect=0.0.0.0:9229" is not one'],
    ["team-lead", '"team-lead" is no teammate name'],
    ["lead", '"lead" is no teammate name'],
    ["up", `its folder "../../etc" is outside this host's working copy`],
    ["root", `its folder "/etc" is outside this host's working copy`],
  ]);
});

Deno.test("planHost: at most MAX_LIVE_TEAMMATES run on one host; the rest are refused", () => {
  const names = Array.from({ length: MAX_LIVE_TEAMMATES + 2 }, (_, i) => `t${i}`);
  const roster = rosterOf(...names.map((name) => entry("s1", name, "b")));
  const plan = planHost(world(roster, { running: new Set(["s1/t0"]) }));
  assert.equal(plan.start.length, MAX_LIVE_TEAMMATES - 1);
  assert.deepEqual(plan.refused.map((item) => item.name), names.slice(MAX_LIVE_TEAMMATES));
  assert.deepEqual(plan.stop, []);
});

Deno.test("insideFolder: relative folders without .. stay inside", () => {
  for (const folder of ["", "a", "a/b", ".claude/worktrees/x", "./a"]) {
    assert.equal(insideFolder(folder), true, folder);
  }
  for (const folder of ["..", "../a", "a/../../b", "/a", "a/.."]) {
    assert.equal(insideFolder(folder), false, folder);
  }
});

Deno.test("isHostEvent: a host's joined and left, of its own session, are no session's", () => {
  const hostEvents = eventFactory(hostSession("b"), "host");
  assert.equal(
    isHostEvent(hostEvents("host.joined", { name: "b", folder: "/w", machine: null })),
    true,
  );
  assert.equal(isHostEvent(hostEvents("host.left", { reason: "stopped" })), true);
  assert.equal(
    isHostEvent(eventFactory("s1", "lead")("host.left", { reason: "stopped" })),
    false,
  );
  assert.equal(
    isHostEvent(eventFactory(hostSession("b"), "host")("agent.stopped", { reason: "idle" })),
    false,
  );
});

Deno.test("planHost: a session whose settings carry a person's own hook commands is refused", () => {
  const roster = rosterOf(entry("s1", "bob", "b"), entry("s2", "dave", "b"));
  const plan = planHost(world(roster, { personalHooks: new Set(["s1"]) }));
  assert.deepEqual(plan.start, [{ session: "s2", name: "dave", restart: 1 }]);
  assert.deepEqual(plan.refused.map((item) => [item.session, item.name]), [["s1", "bob"]]);
  assert.match(plan.refused[0]!.why, /hook commands, which would run here unconfined/);
});

Deno.test("lostTeammates: the live teammates of the lead's sessions placed on a host that is not live; not those on a live host, not stopped or crashed ones, not other sessions'", () => {
  const roster = rosterOf(
    entry("s1", "bob", "b"),
    entry("s1", "carol", "c", { status: "working" }),
    entry("s1", "dave", "c", { status: "stopped" }),
    entry("s1", "erin", "c", { status: "crashed" }),
    entry("s1", "alice", null),
    entry("s2", "fay", "c"),
  );
  assert.deepEqual(lostTeammates(roster, new Set(["s1"]), new Set(["b"])), [
    { session: "s1", name: "carol" },
  ]);
  assert.deepEqual(lostTeammates(roster, new Set(["s1"]), new Set(["b", "c"])), []);
});
