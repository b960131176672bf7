import assert from "node:assert/strict";
import type { ConversationMessage } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";
import {
  claudeTranscriptWriter,
  EMPTY_MARK,
  lineUuid,
  transcriptLines,
} from "./claude_transcript.ts";

const META = { sessionId: "s1", cwd: "/ws", timestamp: "2026-11-29T00:00:00.000Z" };

function conversation(messages: ConversationMessage[], messageSeqs: number[]) {
  return { messages, messageSeqs };
}

Deno.test("transcriptLines: Claude Code's lines, a line per user block, tools by Claude Code's names", () => {
  const messages: ConversationMessage[] = [
    { role: "user", content: [{ type: "text", text: "hi" }] },
    {
      role: "assistant",
      content: [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "a.ts" } }],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "x" },
        { type: "text", text: "hook said" },
      ],
    },
  ];
  const { lines, mark } = transcriptLines(conversation(messages, [1, 3, 5]), META, EMPTY_MARK);
  assert.deepEqual(lines.map((l) => l.type), ["user", "assistant", "user", "user"]);
  assert.deepEqual(lines[0], {
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd: "/ws",
    sessionId: "s1",
    type: "user",
    message: { role: "user", content: "hi" },
    uuid: lineUuid("s1", 1, 0),
    timestamp: META.timestamp,
  });
  assert.deepEqual((lines[1]?.message as { content: unknown[] }).content, [
    { type: "tool_use", id: "t1", name: "Read", input: { file_path: "/ws/a.ts" } },
  ]);
  assert.deepEqual((lines[2]?.message as { content: unknown[] }).content, [
    { type: "tool_result", tool_use_id: "t1", content: "x" },
  ]);
  // A result's line carries Claude Code's object for the call (`toolUseResult`).
  assert.deepEqual(lines[2]?.toolUseResult, {
    type: "text",
    file: { filePath: "/ws/a.ts", content: "x", numLines: 1, startLine: 1, totalLines: 1 },
  });
  lines.slice(1).forEach((line, i) => assert.equal(line.parentUuid, lines[i]?.uuid));
  assert.deepEqual(mark, { seq: 5, blocks: 2, lastUuid: lines[3]?.uuid });
});

Deno.test("transcriptLines: past a mark, only what is new: a grown user message's new blocks, then later messages", () => {
  const first: ConversationMessage[] = [
    { role: "user", content: [{ type: "text", text: "hi" }] },
  ];
  const one = transcriptLines(conversation(first, [1]), META, EMPTY_MARK);
  const grown: ConversationMessage[] = [
    { role: "user", content: [{ type: "text", text: "hi" }, { type: "text", text: "more" }] },
    { role: "assistant", content: [{ type: "text", text: "ok" }] },
  ];
  const two = transcriptLines(conversation(grown, [1, 4]), META, one.mark);
  assert.deepEqual(two.lines.map((l) => (l.message as { content: unknown }).content), [
    "more",
    [{ type: "text", text: "ok" }],
  ]);
  assert.equal(two.lines[0]?.parentUuid, one.mark.lastUuid);
  assert.deepEqual(transcriptLines(conversation(grown, [1, 4]), META, two.mark).lines, []);
  // The same log gives the same lines.
  const whole = transcriptLines(conversation(grown, [1, 4]), META, EMPTY_MARK);
  assert.deepEqual(whole.lines.map((l) => l.uuid), [...one.lines, ...two.lines].map((l) => l.uuid));
});

Deno.test("claudeTranscriptWriter writes a session's file whole once, then appends; a failed write throws nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const messages: ConversationMessage[] = [
      { role: "user", content: [{ type: "text", text: "hi" }] },
    ];
    const messageSeqs = [1];
    const state = {
      sessions: {
        byId: {
          s1: { workspace: "/ws", mainAgent: "main", agents: { main: { messages, messageSeqs } } },
        },
      },
    } as unknown as State;
    const write = claudeTranscriptWriter(`${dir}/events.jsonl`, () => new Date(0));
    const path = await write(state, "s1");
    assert.equal(path, `${dir}/transcripts/s1.jsonl`);
    assert.equal((await Deno.readTextFile(path)).trim().split("\n").length, 1);
    messages.push({ role: "assistant", content: [{ type: "text", text: "yo" }] });
    messageSeqs.push(3);
    await Promise.all([write(state, "s1"), write(state, "s1")]);
    const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.type), ["user", "assistant"]);

    await Deno.writeTextFile(`${dir}/file`, "");
    const blocked = claudeTranscriptWriter(`${dir}/file/events.jsonl`);
    assert.equal(await blocked(state, "s1"), `${dir}/file/transcripts/s1.jsonl`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
