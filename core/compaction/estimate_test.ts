import assert from "node:assert/strict";
import fc from "fast-check";
import type { ConversationMessage } from "../../events/event_types.ts";
import { estimateTokens, messagesTokens } from "./estimate.ts";

Deno.test("messagesTokens, which keeps each block's length, estimates what stringifying each message's content does", () => {
  // Text with what JSON escapes (quotes, control characters, lone surrogates) and what it does not.
  const text = fc.string({ unit: "binary", maxLength: 40 });
  const block = fc.oneof(
    fc.record({ type: fc.constant("text"), text }),
    fc.record({ type: fc.constant("tool_result"), tool_use_id: text, content: text }),
    fc.record({
      type: fc.constant("tool_use"),
      id: text,
      name: text,
      input: fc.dictionary(text, fc.jsonValue({ maxDepth: 2 })),
    }),
  ) as fc.Arbitrary<ConversationMessage["content"][number]>;
  const messages = fc.array(
    fc.record({
      role: fc.constantFrom<"user" | "assistant">("user", "assistant"),
      content: fc.array(block, { maxLength: 4 }),
    }),
    { maxLength: 6 },
  );
  fc.assert(fc.property(messages, (list) => {
    const reference = list.reduce((sum, m) => sum + estimateTokens(m.content) + 2, 0);
    assert.equal(messagesTokens(list), reference);
    // Asked again (the lengths now kept), the same.
    assert.equal(messagesTokens(list), reference);
  }));
});
