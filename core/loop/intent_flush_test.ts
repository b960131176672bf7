import assert from "node:assert/strict";
import { message, text, toolUse } from "../../testing/fake_anthropic.ts";
import { startTestSession } from "../../testing/test_session.ts";
import type { AppendOptions } from "../../events/store.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

Deno.test("a call with effects has its intent flushed before it runs; a read-only call's intent is written and left to the next flush", async () => {
  await using t = await startTestSession(
    (request) =>
      (request.body?.messages.length ?? 0) === 1
        ? message([
          text("look, then change"),
          toolUse("t_look", "bash", { command: "echo hi" }),
          toolUse("t_touch", "bash", { command: "touch made.txt" }),
        ])
        : message("done"),
    { recordSettings: { settings: { permissions: { allow: ["Bash(touch *)"] } } } },
  );
  const flushed = new Map<string, boolean>();
  const append = t.store.append.bind(t.store);
  t.store.append = (events, options?: AppendOptions) => {
    for (const event of events) {
      if (event.type === "tool.requested") flushed.set(event.data.callId, options?.sync === true);
    }
    return append(events, options);
  };
  const result = await t.session.prompt("go", run());
  assert.equal(result.reason, "completed");
  const sources = t.events().flatMap((e) =>
    e.type === "permission.decided" ? [[e.data.callId, e.data.source.kind]] : []
  );
  assert.deepEqual(sources, [["t_look", "read_only"], ["t_touch", "rule"]]);
  assert.deepEqual([...flushed], [["t_look", false], ["t_touch", true]]);
  await Deno.stat(`${t.workspace}/made.txt`);
});
