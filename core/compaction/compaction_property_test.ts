import assert from "node:assert/strict";
import fc from "fast-check";
import type { ConversationMessage, Envelope, ReinEvent } from "../../events/event_types.ts";
import { type Conversation, emptyConversation, evolveConversation } from "../state/conversation.ts";
import { planClear } from "./clear.ts";
import { planSnip } from "./snip.ts";
import { planSpill } from "./spill.ts";
import { planCut } from "./summary_request.ts";

/** One model round of a random conversation: its text, its calls and their results. */
interface Round {
  text: string;
  calls: { name: string; path: string; size: number; error: boolean }[];
}

const roundArb: fc.Arbitrary<Round> = fc.record({
  text: fc.constantFrom("", "Looking.", "Next step."),
  calls: fc.array(
    fc.record({
      name: fc.constantFrom("read_file", "edit_file", "bash", "grep"),
      path: fc.constantFrom("a.ts", "b.ts", "c.ts"),
      size: fc.oneof(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 20_000, max: 60_000 })),
      error: fc.boolean(),
    }),
    // A round without calls ends the turn: the final "Done." round is that one.
    { minLength: 1, maxLength: 4 },
  ),
});

const conversationArb = fc.array(
  fc.record({
    prompt: fc.stringMatching(/^[a-z][a-z ]{0,19}$/),
    rounds: fc.array(roundArb, { maxLength: 6 }),
  }),
  { minLength: 1, maxLength: 8 },
);

type Layer = "spill" | "snip" | "clear" | "compact";
const layersArb = fc.array(fc.constantFrom<Layer>("spill", "snip", "clear", "compact"), {
  maxLength: 6,
});

/** Folds events into one agent's conversation, numbering them. */
class Folder {
  conversation: Conversation = emptyConversation();
  seq = 0;
  add(event: ReinEvent): void {
    this.seq++;
    const envelope = { ...event, v: 2, seq: this.seq, ts: "", session: "s", agent: "lead" };
    evolveConversation(this.conversation, envelope as Envelope);
  }
}

function play(folder: Folder, turns: readonly { prompt: string; rounds: Round[] }[]): void {
  let id = 0;
  for (const turn of turns) {
    folder.add({ type: "user.prompted", data: { text: turn.prompt } });
    for (const round of [...turn.rounds, { text: "Done.", calls: [] }]) {
      const calls = round.calls.map((call) => ({ ...call, id: `toolu_${++id}` }));
      folder.add({
        type: "model.responded",
        data: {
          messageId: `msg_${id}`,
          model: "m",
          content: [
            ...(round.text ? [{ type: "text" as const, text: round.text }] : []),
            ...calls.map((call) => ({
              type: "tool_use" as const,
              id: call.id,
              name: call.name,
              input: { path: call.path },
            })),
          ],
          stopReason: calls.length > 0 ? "tool_use" : "end_turn",
          usage: { input_tokens: 10, output_tokens: 10 },
          requestId: null,
        },
      });
      for (const call of calls) {
        folder.add({
          type: "tool.completed",
          data: {
            callId: call.id,
            name: call.name,
            content: "x".repeat(call.size),
            isError: call.error,
            durationMs: 1,
          },
        });
      }
    }
  }
}

/** Apply one layer the way the mechanism does: plan, then fold the event it records. */
function apply(folder: Folder, layer: Layer): void {
  const { messages, messageSeqs } = folder.conversation;
  switch (layer) {
    case "spill": {
      const { spilled } = planSpill(messages, { resultChars: 10_000, roundChars: 30_000 });
      if (spilled.length > 0) folder.add({ type: "context.spilled", data: { results: spilled } });
      return;
    }
    case "snip": {
      const snip = planSnip(messages, messageSeqs, { snipAt: 6, snipKeep: 4 });
      if (snip) folder.add({ type: "context.snipped", data: snip });
      return;
    }
    case "clear": {
      const cleared = planClear(messages, { keepRecentResults: 2, clearStep: 1 });
      if (cleared) folder.add({ type: "context.cleared", data: cleared });
      return;
    }
    case "compact": {
      const cut = planCut(messages, 3_000);
      if (cut === null) return;
      const tail = structuredClone(messages.slice(cut));
      const started = {
        trigger: "auto" as const,
        cutIndex: cut,
        cutSeq: messageSeqs[cut] ?? 0,
        tokensBefore: 1,
      };
      folder.add({ type: "compaction.started", data: started });
      folder.add({
        type: "compaction.completed",
        data: { ...started, summary: "The summary.", tokensAfter: 1 },
      });
      const after = folder.conversation.messages;
      // The kept tail is intact: the summary joins its first message or comes before it.
      const offset = after.length - tail.length;
      assert.ok(offset === 0 || offset === 1, `tail kept whole (offset ${offset})`);
      tail.forEach((message, i) => {
        const kept = after[offset + i]!;
        if (i === 0 && offset === 0) {
          assert.deepEqual(kept.content.slice(1), message.content);
        } else assert.deepEqual(kept, message);
      });
      return;
    }
  }
}

/** The checks the Messages API makes on a conversation. */
function assertValid(messages: readonly ConversationMessage[]): void {
  assert.ok(messages.length > 0, "not empty");
  assert.equal(messages[0]!.role, "user", "starts with the user");
  messages.forEach((message, i) => {
    if (i > 0) assert.notEqual(message.role, messages[i - 1]!.role, `roles alternate at ${i}`);
    assert.ok(message.content.length > 0, `message ${i} has content`);
    for (const block of message.content) {
      if (block.type === "text") assert.ok(String(block.text).trim() !== "", "no empty text");
    }
    const uses = message.role === "assistant"
      ? message.content.filter((b) => b.type === "tool_use").map((b) => String(b.id))
      : [];
    const next = messages[i + 1];
    const results = next?.content.filter((b) =>
      b.type === "tool_result"
    ).map((b) => String(b.tool_use_id)) ?? [];
    if (uses.length > 0 && next) {
      assert.deepEqual(results.sort(), [...uses].sort(), `every call of ${i} has its result next`);
      const firstOther = next.content.findIndex((b) => b.type !== "tool_result");
      const lastResult = next.content.findLastIndex((b) => b.type === "tool_result");
      assert.ok(firstOther === -1 || firstOther > lastResult, "results come first");
    }
    if (message.role === "user" && i > 0) {
      const before = messages[i - 1]!;
      const asked = new Set(
        before.content.filter((b) => b.type === "tool_use").map((b) => String(b.id)),
      );
      for (const id of message.content.filter((b) => b.type === "tool_result")) {
        assert.ok(asked.has(String(id.tool_use_id)), "no result without its call");
      }
    }
  });
}

Deno.test("every layer, in every combination and order, leaves a valid request and the kept tail intact", () => {
  fc.assert(
    fc.property(conversationArb, layersArb, (turns, layers) => {
      const folder = new Folder();
      play(folder, turns);
      assertValid(folder.conversation.messages);
      for (const layer of layers) {
        apply(folder, layer);
        assertValid(folder.conversation.messages);
        assert.equal(
          folder.conversation.messageSeqs.length,
          folder.conversation.messages.length,
          "a seq for every message",
        );
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("spilled results become a preview naming their file; cleared ones a placeholder", () => {
  const folder = new Folder();
  play(folder, [{
    prompt: "go",
    rounds: [{ text: "", calls: [{ name: "bash", path: "a.ts", size: 50_000, error: false }] }],
  }]);
  const { spilled, texts } = planSpill(folder.conversation.messages, {
    resultChars: 10_000,
    roundChars: 30_000,
  });
  assert.equal(spilled.length, 1);
  assert.equal(texts.get("toolu_1")?.length, 50_000);
  assert.match(spilled[0]!.preview, /\.rein\/outputs\/toolu_1\.txt/);
  folder.add({ type: "context.spilled", data: { results: spilled } });
  const result = folder.conversation.messages[2]!.content[0]!;
  assert.equal(result.content, spilled[0]!.preview);
  assert.ok(String(result.content).length < 2_500);
});
