import assert from "node:assert/strict";
import type { Envelope, ReinEvent } from "../../events/event_types.ts";
import { agentCwd, agentPlace } from "../state/agent_place.ts";
import { evolve, initialState, type State } from "../state/state.ts";
import { rosterProjection } from "../team/roster_projection.ts";
import { moveAgent, moveRefusal } from "./move_agent.ts";
import { worktreeCatalogProjection } from "./worktree_catalog.ts";

const CATALOG = [worktreeCatalogProjection, rosterProjection];

function teammate(name: string) {
  return {
    parent: "lead",
    callId: `toolu_${name}`,
    type: "teammate",
    description: name,
    model: "claude-test",
    maxTokens: 1000,
    maxTurns: 50,
    teammate: { prompt: "work" },
  };
}

function worktree(name: string, taskId?: number) {
  return {
    name,
    path: `.claude/worktrees/${name}`,
    branch: `worktree-${name}`,
    base: "HEAD",
    baseCommit: "abc",
    ...(taskId === undefined ? {} : { taskId }),
  };
}

/** A session with a lead, teammates alice and bob, and worktrees a and b. */
function teamState(more: readonly (readonly [string, ReinEvent])[] = []): State {
  const state = initialState([], CATALOG);
  const fold = (agent: string, event: ReinEvent) =>
    evolve(
      state,
      {
        v: 2,
        seq: state.lastSeq + 1,
        ts: "2026-11-29T09:00:00.000Z",
        session: "s1",
        agent,
        ...event,
      } as Envelope,
      [],
      "all",
      CATALOG,
    );
  fold("lead", {
    type: "session.started",
    data: {
      model: "claude-test",
      workspace: "/work/repo",
      startedAt: "2026-11-29T09:00:00.000Z",
      maxTokens: 1000,
      platform: "linux",
    },
  });
  fold("alice", { type: "agent.spawned", data: teammate("alice") });
  fold("bob", { type: "agent.spawned", data: teammate("bob") });
  fold("lead", { type: "worktree.created", data: worktree("a", 1) });
  fold("lead", { type: "worktree.created", data: worktree("b", 2) });
  for (const [agent, event] of more) fold(agent, event);
  return state;
}

function apply(state: State, events: readonly ReinEvent[], agent: string): State {
  for (const event of events) {
    evolve(
      state,
      {
        v: 2,
        seq: state.lastSeq + 1,
        ts: "2026-11-29T09:00:00.000Z",
        session: "s1",
        agent,
        ...event,
      } as Envelope,
      [],
      "all",
      CATALOG,
    );
  }
  return state;
}

Deno.test("moveAgent records agent.moved into a worktree, and the agent's cwd follows it", () => {
  const state = teamState();
  const events = moveAgent(state, "s1", "alice", "/work/repo/.claude/worktrees/a");
  assert.deepEqual(events, [{
    type: "agent.moved",
    session: "s1",
    agent: "alice",
    data: { cwd: ".claude/worktrees/a", worktree: "a" },
  }]);
  apply(state, events, "alice");
  const view = state.sessions.byId.s1;
  assert.equal(agentCwd(view, "alice", "/elsewhere/repo"), "/elsewhere/repo/.claude/worktrees/a");
  assert.equal(agentCwd(view, "bob", "/elsewhere/repo"), "/elsewhere/repo");
  assert.deepEqual(agentPlace(view, "alice"), {
    cwd: ".claude/worktrees/a",
    worktree: "a",
    from: "",
  });
  // There already: nothing to record.
  assert.deepEqual(moveAgent(state, "s1", "alice", ".claude/worktrees/a"), []);
});

Deno.test("moveAgent refuses a folder outside the workspace, .git, and an unknown worktree", () => {
  const state = teamState();
  assert.match(
    moveRefusal(state, "s1", "alice", "/work/other") ?? "",
    /^The folder "\/work\/other" is outside the workspace/,
  );
  assert.match(moveRefusal(state, "s1", "alice", "../x") ?? "", /outside the workspace/);
  assert.match(moveRefusal(state, "s1", "alice", ".git/hooks") ?? "", /inside \.git or \.rein/);
  assert.equal(moveRefusal(state, "s1", "alice", "src", "zzz"), 'No worktree named "zzz"');
  assert.throws(() => moveAgent(state, "s1", "alice", "/etc"), /outside the workspace/);
});

Deno.test("moveAgent refuses another teammate's worktree until that teammate is stopped", () => {
  const state = teamState([
    ["alice", { type: "agent.moved", data: { cwd: ".claude/worktrees/a", worktree: "a" } }],
  ]);
  assert.equal(
    moveRefusal(state, "s1", "bob", ".claude/worktrees/a/src"),
    'Worktree "a" is alice\'s: another agent works in it',
  );
  assert.equal(moveRefusal(state, "s1", "bob", ".claude/worktrees/b"), undefined);
  apply(state, [{ type: "agent.stopped", data: { reason: "idle" } } as ReinEvent], "alice");
  assert.equal(moveRefusal(state, "s1", "bob", ".claude/worktrees/a"), undefined);
});

Deno.test("leaving a worktree goes back to where the agent was before it entered one", () => {
  const state = teamState([
    ["lead", { type: "agent.moved", data: { cwd: ".claude/worktrees/a", worktree: "a" } }],
    ["lead", { type: "agent.moved", data: { cwd: ".claude/worktrees/b", worktree: "b" } }],
  ]);
  assert.deepEqual(agentPlace(state.sessions.byId.s1, "lead"), {
    cwd: ".claude/worktrees/b",
    worktree: "b",
    from: "",
  });
  // The lead sits in b: a teammate is refused it.
  assert.match(moveRefusal(state, "s1", "alice", ".claude/worktrees/b") ?? "", /lead's/);
  apply(state, moveAgent(state, "s1", "lead", ""), "lead");
  assert.equal(agentCwd(state.sessions.byId.s1, "lead", "/work/repo"), "/work/repo");
});
