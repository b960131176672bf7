import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import {
  actionOf,
  emptyRoster,
  evolveRoster,
  type Roster,
  rosterKey,
} from "./roster_projection.ts";
import { teammateCost } from "./roster.ts";

let seq = 0;
function event(type: string, data: unknown, agent = "alice", session = "s1"): Envelope {
  seq += 1;
  const ts = `2026-01-01T00:00:${String(seq % 60).padStart(2, "0")}Z`;
  return { v: 2, seq, ts, type, session, agent, data } as Envelope;
}

function spawned(agent: string, teammate?: object, session = "s1"): Envelope {
  return event(
    "agent.spawned",
    {
      parent: "lead",
      callId: `call-${agent}`,
      type: "general-purpose",
      description: agent,
      model: "claude-sonnet-4-5",
      maxTokens: 8192,
      maxTurns: 30,
      cwd: "packages/api",
      ...(teammate === undefined ? {} : { teammate }),
    },
    agent,
    session,
  );
}

function fold(events: Envelope[]): Roster {
  return events.reduce(evolveRoster, emptyRoster());
}

Deno.test("roster: a teammate joins at its agent.spawned with its role, mode, model and place", () => {
  const roster = fold([spawned("alice", { role: "reviewer", mode: "plan", prompt: "Review" })]);
  assert.deepEqual(roster.order, ["s1/alice"]);
  const entry = roster.byKey[rosterKey("s1", "alice")];
  assert.equal(entry?.name, "alice");
  assert.equal(entry?.role, "reviewer");
  assert.equal(entry?.mode, "plan");
  assert.equal(entry?.model, "claude-sonnet-4-5");
  assert.equal(entry?.cwd, "packages/api");
  assert.equal(entry?.status, "working");
  assert.equal(entry?.process, null);
});

Deno.test("roster: a subagent's agent.spawned is not a teammate, nor are its events", () => {
  const roster = fold([
    spawned("Explore@call-1"),
    event("turn.started", { maxTurns: 30 }, "Explore@call-1"),
    event("tool.requested", { callId: "c", name: "bash", input: { command: "ls" } }, "lead"),
  ]);
  assert.deepEqual(roster, emptyRoster());
});

Deno.test("roster: status follows the turns, the process and its exits", () => {
  const flags = ["--allow-read=/w", "--allow-net=api.anthropic.com"];
  const steps: [Envelope, string][] = [
    [spawned("alice", { prompt: "Go" }), "working"],
    [event("agent.started", { process: { pid: 41, flags }, restart: 0 }), "working"],
    [event("turn.started", { maxTurns: 30 }), "working"],
    [event("turn.ended", { reason: "completed", rounds: 1 }), "idle"],
    [event("agent.exited", { code: null, signal: "SIGKILL" }), "crashed"],
    // Restarted after its turn had ended: it waits for mail.
    [event("agent.started", { process: { pid: 42, flags }, restart: 1 }), "idle"],
    [event("agent.stopped", { reason: "shutdown" }), "stopped"],
    // Stopped is final.
    [event("turn.started", { maxTurns: 30 }), "stopped"],
  ];
  let roster = emptyRoster();
  for (const [step, status] of steps) {
    roster = evolveRoster(roster, step);
    assert.equal(roster.byKey["s1/alice"]?.status, status, step.type);
  }
  const entry = roster.byKey["s1/alice"];
  assert.deepEqual(entry?.process, { pid: 42, flags });
  assert.equal(entry?.starts, 2);
  const crashed = evolveRoster(
    fold([spawned("bob", { prompt: "Go" }, "s2")]),
    event("agent.stopped", { reason: "crashed" }, "bob", "s2"),
  );
  assert.equal(crashed.byKey["s2/bob"]?.status, "crashed");
  assert.deepEqual(entry?.exits.map((exit) => exit.signal), ["SIGKILL"]);
});

Deno.test("roster: a teammate waits from a question relayed to the person or a plan it submitted until its loop goes on", () => {
  const steps: [Envelope, string][] = [
    [spawned("alice", { prompt: "Go", mode: "plan" }), "working"],
    [event("turn.started", { maxTurns: 30 }), "working"],
    [
      event("question.asked", {
        id: "toolu_1",
        kind: "permission",
        tool: "bash",
        input: { command: "npm install" },
        asked: "no permission rule allows it",
        suggestion: "Bash(npm install *)",
      }),
      "waiting",
    ],
    // The lead's answer is not the teammate's own event: it waits until its gate decides.
    [event("question.answered", { id: "toolu_1", to: "alice", answer: "yes" }, "lead"), "waiting"],
    [
      event("permission.decided", {
        callId: "toolu_1",
        tool: "bash",
        decision: "allow",
        source: { kind: "user", answer: "yes" },
        reason: "The user allowed it once",
      }),
      "working",
    ],
    [
      event("protocol.requested", {
        id: "toolu_2",
        kind: "plan_approval",
        from: "alice",
        to: "lead",
        plan: "v1",
      }),
      "waiting",
    ],
    [event("tool.requested", { callId: "toolu_2", name: "submit_plan", input: {} }), "working"],
    [
      event("protocol.requested", {
        id: "toolu_3",
        kind: "plan_approval",
        from: "alice",
        to: "lead",
      }),
      "waiting",
    ],
    [event("turn.ended", { reason: "cancelled", rounds: 1 }), "idle"],
  ];
  let roster = emptyRoster();
  for (const [step, status] of steps) {
    roster = evolveRoster(roster, step);
    assert.equal(roster.byKey[rosterKey("s1", "alice")]?.status, status, step.type);
  }
});

Deno.test("roster: the last action is the last call's tool and its command or path", () => {
  const roster = fold([
    spawned("alice", { prompt: "Go" }),
    event("tool.requested", { callId: "c1", name: "read_file", input: { path: "a.ts" } }),
    event("tool.requested", { callId: "c2", name: "bash", input: { command: "npm  test" } }),
  ]);
  assert.equal(roster.byKey["s1/alice"]?.lastAction, "bash npm test");
});

Deno.test("roster: the same name in two sessions is two teammates; a second spawn is ignored", () => {
  const roster = fold([
    spawned("alice", { prompt: "One" }, "s1"),
    spawned("alice", { prompt: "Two" }, "s2"),
    spawned("alice", { prompt: "Again", role: "other" }, "s1"),
  ]);
  assert.deepEqual(roster.order, ["s1/alice", "s2/alice"]);
  assert.equal(roster.byKey["s1/alice"]?.role, null);
});

Deno.test("roster: a teammate's usage and cost add up over its responses", () => {
  const usage = {
    input_tokens: 1_000_000,
    output_tokens: 0,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
  };
  const responded = (model: string) =>
    event("model.responded", {
      messageId: "m",
      model,
      content: [],
      stopReason: "end_turn",
      usage,
      requestId: null,
    });
  const roster = fold([
    spawned("alice", { prompt: "Go" }),
    responded("claude-sonnet-4-6"),
    responded("no-such-model"),
  ]);
  const entry = roster.byKey["s1/alice"];
  assert.equal(entry?.usage.input_tokens, 2_000_000);
  assert.deepEqual(Object.keys(entry?.usageByModel ?? {}), ["claude-sonnet-4-6", "no-such-model"]);
  // $3 per million input tokens; an unknown model's price is unknown (0).
  assert.equal(teammateCost(entry!), 3);
  // Another agent's responses do not count.
  assert.equal(fold([responded("claude-sonnet-4-5")]).order.length, 0);
});

Deno.test("actionOf: a call without a command or path is its tool; long lines are cut", () => {
  assert.equal(actionOf("check_inbox", {}), "check_inbox");
  assert.equal(actionOf("bash", { command: "x".repeat(200) }).length, 80);
});

Deno.test("roster: a host joins at its host.joined (the last join of a name wins) and is marked left at its host.left; a teammate placed on it has its host", () => {
  const roster = fold([
    event("host.joined", { name: "b", folder: "/old", machine: null }, "host", "host:b"),
    event("host.joined", { name: "b", folder: "/w/b", machine: "m1" }, "host", "host:b"),
    event("host.joined", { name: "c", folder: "/w/c", machine: null }, "host", "host:c"),
    event("host.left", { reason: "stopped" }, "host", "host:c"),
    spawned("bob", { prompt: "Go", host: "b" }),
    spawned("alice", { prompt: "Go" }),
  ]);
  assert.deepEqual(
    Object.values(roster.hosts).map((host) => [host.name, host.folder, host.machine, host.left]),
    [["b", "/w/b", "m1", false], ["c", "/w/c", null, true]],
  );
  assert.equal(roster.hosts["b"]?.session, "host:b");
  assert.equal(roster.byKey[rosterKey("s1", "bob")]?.host, "b");
  assert.equal(roster.byKey[rosterKey("s1", "alice")]?.host, null);
});
