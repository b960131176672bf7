import assert from "node:assert/strict";
import fc from "fast-check";
import type { ConversationMessage } from "../../events/event_types.ts";
import { conversationMessage } from "../state/message.ts";
import { MessageFacts } from "./_message_facts.ts";

/** A change to a conversation's message list, as the fold and compaction make them. */
const editArb = fc.oneof(
  fc.record({
    kind: fc.constant("add"),
    text: fc.string({ maxLength: 4 }),
    // Frozen with its content (as the fold makes it), not frozen, or frozen but not its content.
    frozen: fc.constantFrom("all", "none", "shell"),
  }),
  fc.record({ kind: fc.constantFrom("replace", "remove", "cut"), at: fc.nat() }),
  fc.record({ kind: fc.constant("grow") }),
);

Deno.test("the facts of a conversation's messages are each message's, however it changed", () => {
  fc.assert(
    fc.property(fc.array(editArb, { maxLength: 60 }), (edits) => {
      let found = 0;
      const facts = new MessageFacts((message) => {
        found++;
        return message.content.map((block) => String(block.text)).join("|");
      });
      const make = (text: string, frozen: "all" | "none" | "shell"): ConversationMessage => {
        if (frozen === "all") return conversationMessage("user", [{ type: "text", text }]);
        const message: ConversationMessage = { role: "user", content: [{ type: "text", text }] };
        return frozen === "shell" ? Object.freeze(message) : message;
      };
      const messages: ConversationMessage[] = [make("first", "all")];
      facts.of(messages);
      for (const edit of edits) {
        const at = "at" in edit ? edit.at % messages.length : 0;
        if (edit.kind === "add") messages.push(make(edit.text, edit.frozen));
        else if (edit.kind === "replace") messages[at] = make(`new ${at}`, "all");
        else if (edit.kind === "remove" && messages.length > 1) messages.splice(at, 1);
        else if (edit.kind === "cut") messages.splice(at + 1);
        else if (edit.kind === "grow") {
          // A message whose content is not frozen may change in place: it is never taken as it
          // was.
          const open = messages.find((message) => !Object.isFrozen(message.content));
          (open?.content as { type: string; text: string }[] | undefined)?.push({
            type: "text",
            text: "more",
          });
        }
        const before = found;
        const expected = messages.map((message) =>
          message.content.map((block) => String(block.text)).join("|")
        );
        assert.deepEqual(facts.of(messages), expected);
        // Frozen messages already seen are not looked at again.
        const frozen = (message: ConversationMessage) => Object.isFrozen(message.content);
        if (edit.kind === "add" && edit.frozen === "all" && messages.every(frozen)) {
          assert.equal(found - before, 1);
        }
      }
    }),
    { numRuns: 300 },
  );
});
