import assert from "node:assert/strict";
import type { SessionView } from "../state/sessions.ts";
import { initialState, type State } from "../state/state.ts";
import type { AnyTool } from "../tools/tool.ts";
import { isolationName } from "./isolated_task.ts";
import { worktreesMechanism } from "./worktrees_mechanism.ts";

/** A state with one session, `s`, whose recorded files are `files`. */
function stateWith(files: { source: string; path: string; text: string }[]): State {
  const state = initialState();
  state.sessions.byId.s = { files, agents: {} } as unknown as SessionView;
  return state;
}

const task: AnyTool = {
  name: "task",
  description: "Starts a subagent",
  inputSchema: {
    type: "object",
    properties: { prompt: { type: "string" } },
    required: ["prompt"],
    additionalProperties: false,
  },
  kind: "composite",
  readOnly: false,
  summarize: () => "",
  run: (input) => Promise.resolve({ content: JSON.stringify(input) }),
};

const HEAD = { source: "environment.git", path: "/w/.git/HEAD", text: "ref: refs/heads/main\n" };

Deno.test("outside a git repository the session gets no worktree tools and task as it is", () => {
  const mechanism = worktreesMechanism({ workspace: "/w" });
  const scope = { state: stateWith([]), session: "s", agent: "lead" };
  assert.deepEqual(mechanism.tools?.(scope), []);
  assert.deepEqual(mechanism.filterTools?.(scope, [task]), [task]);
});

Deno.test("in a git repository: the three tools, and task with isolation, the same object each time", async () => {
  const mechanism = worktreesMechanism({ workspace: "/w" });
  const scope = { state: stateWith([HEAD]), session: "s", agent: "lead" };
  const tools = mechanism.tools?.(scope) ?? [];
  assert.deepEqual(tools.map((tool) => [tool.name, tool.claudeNames?.[0], tool.kind]), [
    ["create_worktree", "EnterWorktree", "effect"],
    ["keep_worktree", "ExitWorktree", "decider"],
    ["remove_worktree", "ExitWorktree", "effect"],
  ]);
  const [wrapped] = mechanism.filterTools?.(scope, [task]) ?? [];
  assert.notEqual(wrapped, task);
  assert.equal(mechanism.filterTools?.(scope, [task])[0], wrapped);
  const properties = wrapped?.inputSchema?.properties as Record<string, { enum?: string[] }>;
  assert.deepEqual(properties.isolation?.enum, ["worktree"]);
  assert.deepEqual(Object.keys(properties), ["prompt", "isolation"]);
  // Without isolation the call is task's own, the field dropped.
  const context = { view: () => scope.state, session: "s", agent: "lead" } as never;
  const plain = await wrapped?.run({ prompt: "p" }, context);
  assert.equal(plain?.content, '{"prompt":"p"}');
});

Deno.test("an isolated subagent's worktree is named after its call", () => {
  assert.equal(isolationName("toolu_01ABC"), "agent-toolu_01ABC");
  assert.equal(isolationName("call/1:x"), "agent-call-1-x");
  assert.equal(isolationName("__"), "agent-x");
  assert.equal(isolationName("t".repeat(80)).length, 46);
});

Deno.test("a type whose definition says isolation: worktree is started in a worktree unasked", async () => {
  const definition = {
    source: "agents",
    path: "/w/.claude/agents/iso.md",
    text: "---\nname: iso\ndescription: d\nisolation: worktree\n---\nWork apart.\n",
  };
  const state = stateWith([HEAD, definition]);
  const mechanism = worktreesMechanism({ workspace: "/w" });
  const [wrapped] = mechanism.filterTools?.({ state, session: "s", agent: "lead" }, [task]) ?? [];
  const context = { view: () => state, session: "s", agent: "lead", callId: "c" } as never;
  // No loop drives this call: the isolated path says so, where the plain one would have run.
  const iso = await wrapped?.run({ prompt: "p", subagent_type: "iso" }, context);
  assert.match(iso?.content ?? "", /no agent loop drives this call/);
  const plain = await wrapped?.run({ prompt: "p", subagent_type: "other" }, context);
  assert.equal(plain?.content, '{"prompt":"p","subagent_type":"other"}');
});
