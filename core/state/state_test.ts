import assert from "node:assert/strict";
import { awaitsModel, lastAssistantText } from "./conversation.ts";
import { mainAgentOf } from "./sessions.ts";
import { foldEvents } from "./state.ts";
import type { Projection } from "./projection.ts";
import { type EventType, isKernelEvent } from "../../events/event_types.ts";
import { eventFactory, respondedData, startedData } from "../../testing/event_factory.ts";

Deno.test("a prompt, a tool call and its result fold into alternating messages", () => {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData()),
    e("user.prompted", { text: "list files" }),
    e("turn.started", { roundsBefore: 0, maxTurns: null }),
    e("model.requested", { model: "claude-test", digest: "d1", attempt: 1 }),
    e(
      "model.responded",
      respondedData([
        { type: "text", text: "Listing.", citations: null },
        { type: "tool_use", id: "t1", name: "bash", input: { command: "ls" } },
      ]),
    ),
    e("tool.requested", { callId: "t1", name: "bash", input: { command: "ls" } }),
    e("tool.completed", {
      callId: "t1",
      name: "bash",
      content: "a.txt",
      isError: false,
      durationMs: 3,
    }),
  ]);
  const session = state.sessions.byId["s1"];
  assert.ok(session);
  const lead = mainAgentOf(session);
  assert.deepEqual(lead.messages, [
    { role: "user", content: [{ type: "text", text: "list files" }] },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Listing." },
        { type: "tool_use", id: "t1", name: "bash", input: { command: "ls" } },
      ],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "a.txt" }] },
  ]);
  assert.equal(lead.rounds, 1);
  assert.deepEqual(lead.pendingCalls, []);
  assert.deepEqual(lead.openIntents, []);
  assert.equal(awaitsModel(lead), true);
  assert.equal(session.status, "unfinished");
  assert.equal(session.firstPrompt, "list files");
  assert.equal(session.usage.input_tokens, 10);
});

Deno.test("a tool intent without a result stays open, and is what resume must close", () => {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData()),
    e("user.prompted", { text: "go" }),
    e(
      "model.responded",
      respondedData([
        { type: "tool_use", id: "t1", name: "bash", input: { command: "sleep 9" } },
        { type: "tool_use", id: "t2", name: "bash", input: { command: "echo" } },
      ]),
    ),
    e("tool.requested", { callId: "t1", name: "bash", input: { command: "sleep 9" } }),
  ]);
  const lead = mainAgentOf(state.sessions.byId["s1"]!);
  assert.deepEqual(lead.openIntents.map((c) => c.id), ["t1"]);
  assert.deepEqual(lead.pendingCalls.map((c) => c.id), ["t1", "t2"]);
  assert.equal(awaitsModel(lead), false);
});

Deno.test("a prompt after a cancelled model call merges into the same user message", () => {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData()),
    e("user.prompted", { text: "first" }),
    e("model.requested", { model: "claude-test", digest: "d", attempt: 1 }),
    e("model.cancelled", { attempt: 1 }),
    e("turn.ended", { reason: "cancelled", rounds: 0, message: "Cancelled by the user" }),
    e("user.prompted", { text: "second" }),
  ]);
  const session = state.sessions.byId["s1"]!;
  const lead = mainAgentOf(session);
  assert.equal(lead.messages.length, 1);
  assert.deepEqual(lead.messages[0]?.content.map((b) => b.text), ["first", "second"]);
  assert.equal(lead.awaitingModel, false);
  assert.equal(session.status, "cancelled");
});

Deno.test("a fork starts from the recorded history and knows its open calls", () => {
  const e = eventFactory("fork");
  const state = foldEvents([
    e(
      "session.started",
      startedData({
        forkedFrom: { session: "s1", seq: 5 },
        history: [
          { role: "user", content: [{ type: "text", text: "hi" }] },
          { role: "assistant", content: [{ type: "tool_use", id: "t9", name: "bash", input: {} }] },
        ],
      }),
    ),
  ]);
  const session = state.sessions.byId["fork"]!;
  assert.deepEqual(session.forkedFrom, { session: "s1", seq: 5 });
  assert.deepEqual(mainAgentOf(session).pendingCalls.map((c) => c.id), ["t9"]);
});

Deno.test("events of a session that never started are ignored, not thrown on", () => {
  const e = eventFactory("ghost");
  const state = foldEvents([e("user.prompted", { text: "boo" })]);
  assert.deepEqual(state.sessions.order, []);
  assert.equal(state.lastSeq, 1);
});

Deno.test("the last assistant text is the answer of the run", () => {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData()),
    e("user.prompted", { text: "q" }),
    e("model.responded", respondedData([{ type: "text", text: "The answer" }])),
    e("turn.ended", { reason: "completed", rounds: 1 }),
  ]);
  const session = state.sessions.byId["s1"]!;
  assert.equal(lastAssistantText(mainAgentOf(session)), "The answer");
  assert.equal(session.status, "idle");
});

Deno.test("tool results go before text in a user message, as the API requires", () => {
  const e = eventFactory();
  const state = foldEvents([
    e(
      "session.started",
      startedData({
        history: [
          { role: "user", content: [{ type: "text", text: "go" }] },
          { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "bash", input: {} }] },
          { role: "user", content: [{ type: "text", text: "while you're at it" }] },
        ],
      }),
    ),
    e("tool.completed", {
      callId: "t1",
      name: "bash",
      content: "ok",
      isError: false,
      durationMs: 1,
    }),
  ]);
  const last = mainAgentOf(state.sessions.byId["s1"]!).messages.at(-1);
  assert.deepEqual(last?.content.map((b) => b.type), ["tool_result", "text"]);
});

Deno.test("a tool call cut off by max_tokens is marked so it is not run", () => {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData()),
    e("user.prompted", { text: "write it" }),
    e("model.responded", {
      ...respondedData([
        { type: "text", text: "Writing." },
        { type: "tool_use", id: "w", name: "write_file", input: { path: "big.txt" } },
      ]),
      stopReason: "max_tokens",
    }),
  ]);
  assert.equal(mainAgentOf(state.sessions.byId["s1"]!).truncatedCallId, "w");
});

Deno.test("what a misbehaving model sends back is made valid before it joins the history", () => {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData()),
    e("user.prompted", { text: "go" }),
    e(
      "model.responded",
      respondedData([
        { type: "text", text: "" },
        { type: "tool_use", id: "t1", name: "bash", input: { command: "ls" } },
        { type: "tool_use", id: "t1", name: "bash", input: { command: "rm -rf /" } },
        { type: "tool_use", id: "t2", name: "", input: {} },
        { type: "tool_use", id: "t3", name: "read_file", input: "a.txt" },
      ]),
    ),
  ]);
  const lead = mainAgentOf(state.sessions.byId["s1"]!);
  assert.deepEqual(lead.messages.at(-1), {
    role: "assistant",
    content: [
      { type: "tool_use", id: "t1", name: "bash", input: { command: "ls" } },
      { type: "tool_use", id: "t3", name: "read_file", input: {} },
    ],
  });
  assert.deepEqual(lead.pendingCalls, [
    { id: "t1", name: "bash", input: { command: "ls" } },
    { id: "t3", name: "read_file", input: "a.txt" },
  ]);
});

Deno.test("thinking cut off before its signature is not sent back", () => {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData()),
    e("user.prompted", { text: "go" }),
    e("model.responded", {
      ...respondedData([{ type: "thinking", thinking: "Let me", signature: "" }]),
      stopReason: "max_tokens",
    }),
  ]);
  const lead = mainAgentOf(state.sessions.byId["s1"]!);
  assert.equal(lead.messages.length, 1, "no assistant message made of an unsigned thought");
});

Deno.test("a tool call whose id the conversation has is left out, until its answer is discarded", () => {
  const e = eventFactory();
  const call = (id: string) => ({ type: "tool_use" as const, id, name: "bash", input: {} });
  const result = (callId: string) => ({
    callId,
    name: "bash",
    content: "ok",
    isError: false,
    durationMs: 1,
  });
  const state = foldEvents([
    e("session.started", startedData()),
    e("user.prompted", { text: "go" }),
    e("model.responded", respondedData([call("t1")])),
    e("tool.completed", result("t1")),
    e("model.responded", respondedData([call("t1"), call("t2"), call("t2")])),
    e("tool.completed", result("t2")),
    e("model.responded", respondedData([call("t3")])),
    e("model.discarded", { messageId: "msg_1", reason: "max_tokens" }),
    e("model.responded", respondedData([call("t3")])),
  ]);
  const ids = mainAgentOf(state.sessions.byId["s1"]!).messages
    .flatMap((m) => m.content.flatMap((b) => b.type === "tool_use" ? [b.id] : []));
  assert.deepEqual(ids, ["t1", "t2", "t3"]);
});

Deno.test("a projection is called only for the event types it declares, in the order registered", () => {
  const e = eventFactory();
  const seen: string[] = [];
  const watcher = (key: string, canHandle: readonly EventType[]): Projection<number> => ({
    key,
    canHandle,
    initial: () => 0,
    evolve(count, event) {
      seen.push(`${key} ${event.type}`);
      return count + 1;
    },
  });
  const projections = [
    watcher("todos-only", ["todo.updated"]),
    watcher("both", ["session.started", "todo.updated"]),
  ];
  const state = foldEvents([
    e("session.started", startedData()),
    e("user.prompted", { text: "plan it" }),
    e("todo.updated", { todos: [] }),
    e("cron.fired", {
      id: "c1",
      minute: "2026-11-22T10:01:00.000Z",
      firedAt: "2026-11-22T10:01:00.000Z",
      late: false,
      missed: 0,
      prompt: "check",
    }),
  ], projections);
  assert.deepEqual(seen, [
    "both session.started",
    "todos-only todo.updated",
    "both todo.updated",
  ]);
  assert.deepEqual(state.extensions, { "todos-only": 1, both: 2 });
});

Deno.test("a mechanism's event is the session's last and makes its agent known, and changes no view otherwise", () => {
  const e = eventFactory();
  const started = [e("session.started", startedData()), e("user.prompted", { text: "go" })];
  const before = structuredClone(foldEvents(started).sessions.byId["s1"]);
  const note = { ...e("todo.updated", { todos: [] }), agent: "helper" };
  const after = foldEvents([...started, note]).sessions.byId["s1"];
  assert.ok(before && after);
  assert.equal(after.lastSeq, 3);
  assert.deepEqual(Object.keys(after.agents), ["lead", "helper"]);
  assert.deepEqual(after.agents["lead"], before.agents["lead"]);
  assert.equal(after.agents["helper"]?.messages.length, 0);
  assert.ok(isKernelEvent(started[1]!));
  assert.ok(!isKernelEvent(e("todo.updated", { todos: [] })));
});
