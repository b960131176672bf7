import assert from "node:assert/strict";
import { emptyConversation } from "../../core/state/conversation.ts";
import { recap } from "./recap.ts";

Deno.test("a reopened session shows its last prompts with the start of their answers", () => {
  const conversation = emptyConversation([
    { role: "user", content: [{ type: "text", text: "first question" }] },
    { role: "assistant", content: [{ type: "text", text: "first answer" }] },
    { role: "user", content: [{ type: "text", text: "fix the test" }] },
    {
      role: "assistant",
      content: [{ type: "text", text: "Looking." }, {
        type: "tool_use",
        id: "t1",
        name: "bash",
        input: {},
      }],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
    { role: "assistant", content: [{ type: "text", text: "Fixed:\na\nb\nc\nd\ne" }] },
  ]);
  assert.deepEqual(recap(conversation, 1), ["> fix the test", "Fixed:", "a", "b", "c", "…", ""]);
  assert.deepEqual(recap(conversation).slice(0, 3), ["> first question", "first answer", ""]);
  assert.deepEqual(recap(emptyConversation()), []);
});
