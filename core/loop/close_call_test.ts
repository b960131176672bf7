import assert from "node:assert/strict";
import { closeCall } from "./close_call.ts";

const call = { id: "toolu_1", name: "bash", input: { command: "ls" } };

Deno.test("every call closed without running is an error result naming its outcome", () => {
  const closings = [
    closeCall(call, { outcome: "cancelled" }),
    closeCall(call, { outcome: "interrupted" }),
    closeCall(call, { outcome: "not_run", why: "truncated" }),
    closeCall(call, { outcome: "not_run", why: "superseded" }),
    closeCall(call, { outcome: "not_run", why: "forked" }),
    closeCall(call, { outcome: "denied", reason: "Bash(rm *) is denied in .claude/settings.json" }),
    closeCall(call, { outcome: "blocked", reason: "lint hook exited 2" }),
  ];
  assert.deepEqual(closings.map((c) => c.outcome), [
    "cancelled",
    "interrupted",
    "not_run",
    "not_run",
    "not_run",
    "denied",
    "blocked",
  ]);
  for (const closed of closings) {
    assert.equal(closed.isError, true);
    assert.equal(closed.durationMs, 0);
    assert.equal(closed.callId, "toolu_1");
    assert.equal(closed.name, "bash");
  }
  assert.equal(
    closings[5]?.content,
    "Permission denied: Bash(rm *) is denied in .claude/settings.json",
  );
  assert.equal(closings[6]?.content, "Blocked by a hook: lint hook exited 2");
  assert.match(closings[1]?.content ?? "", /^Interrupted: outcome unknown/);
  assert.match(closings[2]?.content ?? "", /max_tokens/);
});
