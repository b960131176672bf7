import assert from "node:assert/strict";
import { foldEvents } from "../../core/state/state.ts";
import { CONTINUE_PROMPT } from "../../core/state/conversation.ts";
import { eventFactory, respondedData, startedData } from "../../testing/event_factory.ts";
import { promptHistory } from "./history.ts";

Deno.test("prompt history is the log's prompts, newest first, each once, on one line", () => {
  const first = eventFactory("s1");
  const second = eventFactory("s2");
  const answer = respondedData([{ type: "text", text: "ok" }]);
  const state = foldEvents([
    first("session.started", startedData()),
    first("user.prompted", { text: "fix the test" }),
    first("model.responded", answer),
    first("user.prompted", { text: "two\nlines" }),
    first("model.responded", answer),
    second("session.started", startedData()),
    second("user.prompted", { text: "fix the test" }),
    second("model.responded", { ...answer, stopReason: "max_tokens" }),
    second("model.continued", { text: CONTINUE_PROMPT }),
  ].map((event, i) => ({ ...event, seq: i + 1 })));
  assert.deepEqual(promptHistory(state), ["fix the test", "two lines"]);
});
