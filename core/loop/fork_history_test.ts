import assert from "node:assert/strict";
import { mainAgentOf } from "../state/sessions.ts";
import { foldEvents } from "../state/state.ts";
import { eventFactory, respondedData, startedData } from "../../testing/event_factory.ts";
import { forkHistory } from "./fork_history.ts";

Deno.test("a fork closes the calls that had no result at the fork point, without re-running them", () => {
  const e = eventFactory();
  const state = foldEvents([
    e("session.started", startedData()),
    e("user.prompted", { text: "go" }),
    e(
      "model.responded",
      respondedData([
        { type: "tool_use", id: "a", name: "bash", input: { command: "echo a" } },
        { type: "tool_use", id: "b", name: "bash", input: { command: "echo b" } },
      ]),
    ),
    e("tool.requested", { callId: "a", name: "bash", input: { command: "echo a" } }),
    e("tool.completed", { callId: "a", name: "bash", content: "a", isError: false, durationMs: 1 }),
    e("tool.requested", { callId: "b", name: "bash", input: { command: "echo b" } }),
  ]);
  const source = mainAgentOf(state.sessions.byId["s1"]!);
  const history = forkHistory(source);
  const results = history.at(-1)?.content ?? [];
  assert.deepEqual(results.map((b) => [b.tool_use_id, b.is_error ?? false]), [["a", false], [
    "b",
    true,
  ]]);
  assert.match(String(results[1]?.content), /^Not run in this session: it was forked/);
  assert.equal(source.messages.at(-1)?.content.length, 1, "the source conversation is untouched");
  const fork = foldEvents([eventFactory("fork")("session.started", startedData({ history }))]);
  assert.deepEqual(mainAgentOf(fork.sessions.byId["fork"]!).pendingCalls, []);
});
