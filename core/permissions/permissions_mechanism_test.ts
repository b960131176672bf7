import assert from "node:assert/strict";
import { join } from "node:path";
import type {
  Envelope,
  PermissionDecided,
  PermissionFlags,
  ReinEvent,
} from "../../events/event_types.ts";
import { testStageContext } from "../../testing/stage_context.ts";
import { tempDir } from "../../testing/tool_helpers.ts";
import { hooksProjection } from "../hooks/hooks_projection.ts";
import type { GateDecision } from "../loop/stages.ts";
import { evolve, initialState, type State } from "../state/state.ts";
import { type PermissionQuestion, permissionsMechanism } from "./permissions_mechanism.ts";
import { permissionsProjection } from "./permissions_projection.ts";

const PROJECTIONS = [permissionsProjection, hooksProjection];
const HOME = "/home/alice";

/** A session in `workspace` recorded with `flags`, and `more` events of its agents. */
function sessionState(
  workspace: string,
  flags: PermissionFlags,
  interactive: boolean,
  more: [agent: string, event: ReinEvent][] = [],
): State {
  const state = initialState(PROJECTIONS);
  const events: [string, ReinEvent][] = [
    ["lead", {
      type: "session.started",
      data: {
        model: "m",
        workspace,
        startedAt: "2026-11-22T10:00:00.000Z",
        maxTokens: 1,
        platform: "linux",
        settings: { sources: [], flags, home: HOME, interactive },
      },
    }],
    ...more,
  ];
  events.forEach(([agent, event], i) => {
    const envelope = { v: 2, seq: i + 1, ts: "", session: "s1", agent, ...event } as Envelope;
    evolve(state, envelope, PROJECTIONS);
  });
  return state;
}

/** The gate's decision about `call`, read live (the disk, `answer` for a question). */
async function gate(
  state: State,
  workspace: string,
  call: { id: string; name: string; input: Record<string, unknown> },
  options: { agent?: string; answer?: "yes" | "always" | "no"; asked?: PermissionQuestion[] } = {},
): Promise<{ gate: GateDecision; decided: PermissionDecided; events: ReinEvent[] }> {
  const mechanism = permissionsMechanism({
    workspace,
    ask: (question) => {
      options.asked?.push(question);
      return Promise.resolve({ answer: options.answer ?? "no" });
    },
  });
  const context = testStageContext(state, {
    agent: options.agent ?? "lead",
    observe: (_type, _matches, read) => read(),
    observeMaybe: (_type, _matches, read) => read(),
  });
  const decision = await mechanism.stages?.gateCall?.(context, call);
  assert.ok(decision);
  const events = decision.events ?? [];
  const decided = events.find((e) => e.type === "permission.decided")?.data as PermissionDecided;
  return { gate: decision, decided, events };
}

Deno.test("'always' at the question about .git/ allows that call only and saves no rule", async () => {
  await using dir = await tempDir();
  await dir.write({ ".git/config": "[core]\n" });
  await Deno.symlink(".git/config", join(dir.path, "gc"));
  const workspace = await Deno.realPath(dir.path);
  const asked: PermissionQuestion[] = [];
  const { gate: decision, decided, events } = await gate(
    sessionState(workspace, { allowedTools: ["Write"] }, true),
    workspace,
    { id: "toolu_1", name: "write_file", input: { path: "gc", content: "x" } },
    { answer: "always", asked },
  );
  assert.equal(decision.run, true);
  assert.equal(asked[0]?.protectedPath, join(workspace, ".git/config"));
  assert.deepEqual(decided.source, { kind: "user", answer: "yes" });
  assert.equal(decided.protectedPath, join(workspace, ".git/config"));
  assert.deepEqual(events[0], {
    type: "permission.path_resolved",
    data: {
      callId: "toolu_1",
      path: join(workspace, "gc"),
      realPath: join(workspace, ".git/config"),
    },
  });
  await assert.rejects(Deno.stat(join(workspace, ".claude/settings.local.json")));
});

Deno.test("a subagent's definition may narrow its parent's mode; only the person's own may widen it", async () => {
  await using dir = await tempDir();
  const workspace = await Deno.realPath(dir.path);
  const spawned = (agent: string, parent: string, mode: string, path: string): [
    string,
    ReinEvent,
  ] => [agent, {
    type: "agent.spawned",
    data: {
      parent,
      callId: `toolu_${agent}`,
      type: agent,
      description: "d",
      model: "m",
      maxTokens: 1,
      maxTurns: 1,
      permissionMode: mode,
      path,
    },
  }];
  const repository = join(workspace, ".claude/agents/x.md");
  const mine = join(HOME, ".claude/agents/x.md");
  const state = sessionState(workspace, { permissionMode: "plan" }, false, [
    spawned("repo", "lead", "acceptEdits", repository),
    spawned("mine", "lead", "acceptEdits", mine),
    spawned("nested", "repo", "bypassPermissions", repository),
    spawned("narrow", "mine", "dontAsk", repository),
  ]);
  const write = { id: "toolu_w", name: "write_file", input: { path: "a.txt", content: "x" } };
  const sourceOf = async (agent: string) =>
    (await gate(state, workspace, { ...write, id: `toolu_${agent}_w` }, { agent })).decided.source;
  assert.deepEqual(await sourceOf("repo"), { kind: "mode", mode: "plan" });
  assert.deepEqual(await sourceOf("mine"), { kind: "mode", mode: "acceptEdits" });
  assert.deepEqual(await sourceOf("nested"), { kind: "mode", mode: "plan" });
  assert.deepEqual(await sourceOf("narrow"), { kind: "mode", mode: "dontAsk" });
});

Deno.test("a personal definition recorded in a part of the session made elsewhere does not widen the mode", async () => {
  await using dir = await tempDir();
  const workspace = await Deno.realPath(dir.path);
  const settings = (machine: string) => ({
    sources: [],
    flags: { permissionMode: "plan" },
    home: HOME,
    interactive: false,
    machine,
  });
  const resumed = (snapshot: ReturnType<typeof settings>): ReinEvent => ({
    type: "session.resumed",
    data: { how: "continue", withPrompt: true, maxTurns: null, settings: snapshot },
  });
  const state = sessionState(workspace, { permissionMode: "plan" }, false, [
    ["mine", {
      type: "agent.spawned",
      data: {
        parent: "lead",
        callId: "toolu_mine",
        type: "mine",
        description: "d",
        model: "m",
        maxTokens: 1,
        maxTurns: 1,
        permissionMode: "bypassPermissions",
        path: join(HOME, ".claude/agents/x.md"),
      },
    }],
    ["lead", resumed(settings("there"))],
    ["lead", resumed(settings("here"))],
  ]);
  const write = { id: "toolu_w", name: "write_file", input: { path: "a.txt", content: "x" } };
  const { decided } = await gate(state, workspace, write, { agent: "mine" });
  assert.deepEqual(decided.source, { kind: "mode", mode: "plan" });
});
