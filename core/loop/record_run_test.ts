import assert from "node:assert/strict";
import { z } from "zod";
import type { Mechanism } from "../mechanism.ts";
import type { State } from "../state/state.ts";
import type { ToolRun } from "../tools/executor.ts";
import type { Tool } from "../tools/tool.ts";
import { message, toolUse } from "../../testing/fake_anthropic.ts";
import { startTestSession } from "../../testing/test_session.ts";

Deno.test("a result decided under the lock is decided on the log as other writers left it", async () => {
  const seen: ToolRun[] = [];
  /** Another writer's append, set once the log is open. */
  const other: { append?: () => Promise<unknown> } = {};
  const tool: Tool<Record<string, never>> = {
    name: "take",
    description: "Takes the next number.",
    schema: z.strictObject({}),
    kind: "effect",
    readOnly: false,
    summarize: () => "",
    async run(_input, context) {
      // Another writer appends after the tool read the state and before its result is recorded.
      await other.append?.();
      const decide = (state: State) => ({
        content: `Took ${state.lastSeq + 1}`,
        events: [{ type: "reminder.added" as const, data: { source: "take", text: "taken" } }],
      });
      return { content: `Took ${context.view().lastSeq + 1}`, decide };
    },
  };
  const mechanism: Mechanism = {
    name: "take",
    tools: () => [tool],
    stages: {
      afterCall(_context, _call, run) {
        seen.push(run);
        return Promise.resolve([]);
      },
    },
  };
  await using t = await startTestSession([
    message([toolUse("toolu_take", "take", {})]),
    message("Done."),
  ], { mechanisms: [mechanism] });
  other.append = () =>
    t.store.append([{
      type: "reminder.added",
      data: { source: "elsewhere", text: "another process" },
      session: "session-2",
      agent: "lead",
    }]);
  await t.session.prompt("take one", { signal: new AbortController().signal, maxTurns: null });
  const events = t.events();
  const elsewhere = events.findIndex((e) => e.session === "session-2");
  const completed = events.findIndex((e) => e.type === "tool.completed");
  assert.ok(elsewhere >= 0 && elsewhere < completed);
  // Decided after the other writer's event: its own event and result come next, together.
  assert.deepEqual(events.slice(elsewhere + 1, completed + 1).map((e) => e.type), [
    "reminder.added",
    "tool.completed",
  ]);
  const result = events[completed]!;
  assert.equal(result.type === "tool.completed" && result.data.content, `Took ${elsewhere + 2}`);
  assert.equal(seen[0]?.completed.content, `Took ${elsewhere + 2}`, "the after-call stage saw it");
  assert.equal(seen[0]?.decide, undefined);
});
