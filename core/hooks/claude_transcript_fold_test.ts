import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import { eventFactory, respondedData, startedData } from "../../testing/event_factory.ts";
import {
  emptyTranscriptFold,
  lineUuid,
  transcriptEntries,
  type TranscriptEntry,
} from "./claude_transcript_fold.ts";

/** core/environment's GIT_HEAD_SOURCE (a mechanism this one does not import). */
const GIT_HEAD_SOURCE = "environment.git";

function foldAll(events: Envelope[], version = "0.1.0"): TranscriptEntry[] {
  const fold = emptyTranscriptFold("s1", version);
  return events.flatMap((event) => transcriptEntries(fold, event));
}

Deno.test("transcriptEntries: Claude Code's lines with the log's times, the answer's model, id, usage and request id", () => {
  const e = eventFactory();
  const head = { source: GIT_HEAD_SOURCE, path: "/ws/.git/HEAD", text: "ref: refs/heads/main\n" };
  const events = [
    e("session.started", startedData({ workspace: "/ws", files: [head] })),
    e("user.prompted", { text: "hi" }),
    e("model.responded", {
      ...respondedData([
        { type: "thinking", thinking: "hm", signature: "sig" },
        { type: "text", text: "Reading." },
        { type: "tool_use", id: "t1", name: "read_file", input: { path: "a.ts" } },
      ]),
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: null },
    }),
    e("tool.completed", {
      callId: "t1",
      name: "read_file",
      content: "x",
      isError: false,
      durationMs: 3,
    }),
  ];
  const lines = foldAll(events).map((entry) => entry.line);
  assert.deepEqual(lines.map((l) => l.type), [
    "user",
    "assistant",
    "assistant",
    "assistant",
    "user",
  ]);
  assert.deepEqual(lines[0], {
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd: "/ws",
    sessionId: "s1",
    version: "0.1.0",
    gitBranch: "main",
    type: "user",
    message: { role: "user", content: "hi" },
    uuid: lineUuid("s1", 2, 0),
    timestamp: events[1]!.ts,
  });
  // One line per block of the answer, each with the answer's message fields, as Claude Code.
  for (const line of lines.slice(1, 4)) {
    const message = line.message as Record<string, unknown>;
    assert.equal(message.id, "msg_1");
    assert.equal(message.model, "claude-test");
    assert.equal(message.stop_reason, "tool_use");
    assert.deepEqual(message.usage, {
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
    assert.equal(line.requestId, "req_1");
    assert.equal(line.timestamp, events[2]!.ts);
  }
  assert.deepEqual((lines[3]?.message as { content: unknown[] }).content, [
    { type: "tool_use", id: "t1", name: "Read", input: { file_path: "/ws/a.ts" } },
  ]);
  // A result: its own user line, chained on the answer's line that asked, with Claude Code's object.
  assert.deepEqual((lines[4]?.message as { content: unknown[] }).content, [
    { tool_use_id: "t1", type: "tool_result", content: "x" },
  ]);
  assert.equal(lines[4]?.parentUuid, lines[3]?.uuid);
  assert.equal(lines[4]?.sourceToolAssistantUUID, lines[3]?.uuid);
  assert.deepEqual(lines[4]?.toolUseResult, {
    type: "text",
    file: { filePath: "/ws/a.ts", content: "x", numLines: 1, startLine: 1, totalLines: 1 },
  });
  assert.equal(lines[4]?.timestamp, events[3]!.ts);
  lines.slice(1).forEach((line, i) => assert.equal(line.parentUuid, lines[i]?.uuid));
  // The same log gives the same lines.
  assert.deepEqual(foldAll(events).map((entry) => entry.line), lines);
});

Deno.test("transcriptEntries: rein's own inputs are isMeta lines, a failed call's result is Claude Code's error text", () => {
  const e = eventFactory();
  const events = [
    e("session.started", startedData({ workspace: "/ws" })),
    e("user.prompted", { text: "go" }),
    e("hook.context", { hookEvent: "UserPromptSubmit", text: "note" }),
    e("model.responded", respondedData([{ type: "tool_use", id: "t1", name: "bash", input: {} }])),
    e("tool.completed", {
      callId: "t1",
      name: "bash",
      content: "boom",
      isError: true,
      durationMs: 1,
    }),
    e("reminder.added", { source: "todos", text: "todos" }),
    e("user.prompted", { text: "no", refused: "hook" }),
  ];
  const lines = foldAll(events, "").map((entry) => entry.line);
  assert.deepEqual(lines.map((l) => [l.type, l.isMeta ?? false]), [
    ["user", false],
    ["user", true],
    ["assistant", false],
    ["user", false],
    ["user", true],
  ]);
  assert.equal(lines[0]?.gitBranch, "");
  assert.equal("version" in lines[0]!, false);
  assert.equal(lines[3]?.toolUseResult, "Error: boom");
  assert.deepEqual(lines[3]?.message, {
    role: "user",
    content: [{ tool_use_id: "t1", type: "tool_result", content: "boom", is_error: true }],
  });
  assert.equal(
    (lines[4]?.message as { content: string }).content,
    "<system-reminder>\ntodos\n</system-reminder>",
  );
});

Deno.test("transcriptEntries: a subagent's lines are a sidechain of its own; a compaction is a boundary and a summary", () => {
  const lead = eventFactory("s1", "lead");
  const child = eventFactory("s1", "general-purpose@t1");
  const started = lead("session.started", startedData({ workspace: "/ws" }));
  const fold = emptyTranscriptFold("s1");
  transcriptEntries(fold, started);
  const prompted = transcriptEntries(fold, lead("user.prompted", { text: "go" }));
  const sub = transcriptEntries(fold, { ...child("user.prompted", { text: "look" }), seq: 10 });
  assert.deepEqual(sub.map((entry) => entry.agent), ["general-purpose@t1"]);
  assert.equal(sub[0]?.line.isSidechain, true);
  assert.equal(sub[0]?.line.agentId, "general-purpose@t1");
  assert.equal(sub[0]?.line.parentUuid, null);
  assert.equal(prompted[0]?.line.isSidechain, false);
  assert.equal("agentId" in prompted[0]!.line, false);

  const compacted = transcriptEntries(fold, {
    ...lead("compaction.completed", {
      trigger: "auto",
      cutIndex: 1,
      cutSeq: 2,
      summary: "We said hi.",
      tokensBefore: 900,
      tokensAfter: 100,
    }),
    seq: 11,
  }).map((entry) => entry.line);
  assert.deepEqual(compacted.map((l) => [l.type, l.subtype]), [["system", "compact_boundary"], [
    "user",
    undefined,
  ]]);
  assert.equal(compacted[0]?.parentUuid, null);
  assert.equal(compacted[0]?.logicalParentUuid, prompted[0]?.line.uuid);
  assert.deepEqual(compacted[0]?.compactMetadata, { trigger: "auto", preTokens: 900 });
  assert.equal(compacted[1]?.parentUuid, compacted[0]?.uuid);
  assert.equal(compacted[1]?.isCompactSummary, true);
  assert.match(String((compacted[1]?.message as { content: string }).content), /We said hi\./);
  // Another session's events add nothing.
  const other = eventFactory("s2")("user.prompted", { text: "elsewhere" });
  assert.deepEqual(transcriptEntries(fold, other), []);
});

Deno.test('transcriptEntries: a detached HEAD is the branch "HEAD", as git abbreviates it', () => {
  const e = eventFactory();
  const head = { source: GIT_HEAD_SOURCE, path: "/ws/.git/HEAD", text: "1a2b3c4d5e6f\n" };
  const lines = foldAll([
    e("session.started", startedData({ files: [head] })),
    e("user.prompted", { text: "hi" }),
  ]);
  assert.equal(lines[0]?.line.gitBranch, "HEAD");
});

Deno.test("transcriptEntries: a fork's history opens its transcript; a compaction's summary answer is no line", () => {
  const e = eventFactory();
  const history = [
    { role: "user" as const, content: [{ type: "text", text: "before" }] },
    { role: "assistant" as const, content: [{ type: "text", text: "earlier answer" }] },
  ];
  const lines = foldAll([
    e("session.started", startedData({ history, forkedFrom: { session: "s0", seq: 9 } })),
    e("model.responded", {
      ...respondedData([{ type: "text", text: "summary" }]),
      purpose: "compact",
    }),
  ]).map((entry) => entry.line);
  assert.deepEqual(lines.map((l) => [l.type, (l.message as { content: unknown }).content]), [
    ["user", "before"],
    ["assistant", [{ type: "text", text: "earlier answer" }]],
  ]);
  assert.equal((lines[1]?.message as { model: string }).model, "claude-test");
});
