import assert from "node:assert/strict";
import { eventFactory, respondedData } from "../../testing/event_factory.ts";
import { DETAIL_LIMIT, timelineItem } from "./timeline_item.ts";
import { escapeHtml, sessionsPage } from "./pages.ts";

Deno.test("a tool call's row holds its input, cut at the limit with the whole size when large", () => {
  const event = eventFactory("s1", "alice");
  const small = timelineItem(
    event("tool.requested", { callId: "c1", name: "bash", input: { command: "ls" } }),
  );
  assert.equal(small.kind, "tool");
  assert.equal(small.title, "call bash");
  assert.equal(small.callId, "c1");
  assert.equal(small.detail, JSON.stringify({ command: "ls" }, null, 2));
  assert.equal(small.fullSize, undefined);
  const content = "x".repeat(DETAIL_LIMIT + 10);
  const large = timelineItem(event("tool.completed", {
    callId: "c1",
    name: "bash",
    content,
    isError: false,
    durationMs: 12,
  }));
  assert.equal(large.title, "bash done in 12 ms");
  assert.equal(large.detail?.length, DETAIL_LIMIT);
  assert.equal(large.fullSize, content.length);
  assert.equal(large.outputs, undefined);
});

Deno.test("a result that says where the rest of it is kept links that spilled output", () => {
  const event = eventFactory("s1", "lead");
  const said = "head\n\n[github answered 90000 characters. The whole answer is in " +
    ".rein/outputs/toolu_9.txt: read it with read_file]";
  const row = timelineItem(event("tool.completed", {
    callId: "toolu_9",
    name: "mcp__github__search",
    content: said,
    isError: false,
    durationMs: 3,
  }));
  assert.deepEqual(row.outputs, ["toolu_9.txt"]);
  // A name that is not one rein writes is not linked.
  const other = timelineItem(event("tool.completed", {
    callId: "c2",
    name: "bash",
    content: "see .rein/outputs/../events.jsonl and x.rein/outputs/a.txt",
    isError: false,
    durationMs: 3,
  }));
  assert.equal(other.outputs, undefined);
});

Deno.test("rows of answers, failures, mail and other events say what happened in their lane", () => {
  const event = eventFactory("s1", "lead");
  const answer = timelineItem(
    event("model.responded", respondedData([{ type: "text", text: "Hi" }])),
  );
  assert.deepEqual([answer.kind, answer.tokens, answer.detail], [
    "model",
    { input: 10, output: 5, cacheRead: 0 },
    "Hi",
  ]);
  const failed = timelineItem(event("model.failed", {
    attempt: 1,
    kind: "overloaded",
    status: 529,
    message: "Overloaded",
    retryInMs: 500,
  }));
  assert.deepEqual([failed.kind, failed.title], [
    "error",
    "model failed: overloaded 529, retry in 500 ms",
  ]);
  const mail = timelineItem(event("mail.sent", {
    id: "m1",
    from: "lead",
    to: "*",
    recipients: ["alice", "bob"],
    content: "Go",
    kind: "message",
  }));
  assert.deepEqual([mail.kind, mail.agent, mail.to], ["mail", "lead", ["alice", "bob"]]);
  const todo = timelineItem(event("todo.updated", { todos: [] }));
  assert.deepEqual([todo.kind, todo.title], ["other", "todo updated"]);
});

Deno.test("the sessions list escapes what the log holds and links each session with the token", () => {
  assert.equal(escapeHtml(`<a href="x">&'`), "&#60;a href=&#34;x&#34;&#62;&#38;&#39;");
  const html = sessionsPage("/l.jsonl", [{
    id: "s1",
    startedAt: "2026-11-22T10:00:00.000Z",
    model: "claude-test",
    maxTokens: 1000,
    workspace: "/w",
    mainAgent: "lead",
    forkedFrom: null,
    firstPrompt: "<script>alert(1)</script>",
    status: "idle",
    lastError: null,
    usage: {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
    usageByModel: {},
    rounds: 2,
    firstSeq: 1,
    lastSeq: 9,
    events: 9,
    agentModels: {},
  }], "tok");
  assert.ok(html.includes('href="/session/s1?t=tok"'));
  assert.ok(!html.includes("<script>alert"));
  assert.ok(html.includes("&#60;script&#62;alert(1)"));
});
