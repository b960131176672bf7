import assert from "node:assert/strict";
import fc from "fast-check";
import type { ConversationMessage } from "../../events/event_types.ts";
import { conversationMessage } from "../state/message.ts";
import { estimateTokens, messagesTokens } from "./estimate.ts";

type Block = ConversationMessage["content"][number];

/** Blocks as the fold makes them (keys in order) and as others may (any order, nested values). */
const blockArb: fc.Arbitrary<Block> = fc.oneof(
  fc.record({ text: fc.string({ unit: "binary" }), type: fc.constant("text") }),
  fc.record({ type: fc.constant("text"), text: fc.string({ unit: "grapheme" }) }),
  fc.record({
    content: fc.string({ unit: "binary", maxLength: 500 }),
    is_error: fc.constant(true),
    tool_use_id: fc.string(),
    type: fc.constant("tool_result"),
  }, { requiredKeys: ["content", "tool_use_id", "type"] }),
  fc.record({
    id: fc.string(),
    input: fc.jsonValue(),
    name: fc.string(),
    type: fc.constant("tool_use"),
  }),
);

Deno.test("the estimate of a conversation's messages is JSON.stringify's, frozen or not", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.boolean(), fc.array(blockArb, { maxLength: 4 })), { maxLength: 6 }),
      (specs) => {
        const messages: ConversationMessage[] = specs.map(([frozen, blocks]) =>
          frozen
            ? conversationMessage("user", blocks.map((block) => ({ ...block })))
            : { role: "user", content: blocks }
        );
        const expected = messages.reduce(
          (sum, message) => sum + estimateTokens(message.content) + 2,
          0,
        );
        assert.equal(messagesTokens(messages), expected);
        // Again, from what the first estimate kept.
        assert.equal(messagesTokens(messages), expected);
      },
    ),
    { numRuns: 300 },
  );
});
