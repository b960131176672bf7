import assert from "node:assert/strict";
import { answerOf, StdioAsker } from "./_stdio_asker.ts";

const asked = { command: "npm test" };
const reply = (response: Record<string, unknown> | undefined, error?: string) => ({
  requestId: "r1",
  response,
  ...(error === undefined ? {} : { error }),
});

Deno.test("answerOf reads allow, allow with a kept rule, deny and interrupt", () => {
  assert.deepEqual(answerOf(reply({ behavior: "allow", updatedInput: asked }), asked), {
    answer: "yes",
  });
  assert.deepEqual(answerOf(reply({ behavior: "allow" }), asked), { answer: "yes" });
  const kept = [{ type: "addRules", behavior: "allow", rules: [{ toolName: "Bash" }] }];
  assert.deepEqual(
    answerOf(reply({ behavior: "allow", updatedInput: asked, updatedPermissions: kept }), asked),
    { answer: "always" },
  );
  assert.deepEqual(answerOf(reply({ behavior: "deny", message: "no" }), asked), {
    answer: "no",
    reason: "no",
  });
  assert.deepEqual(answerOf(reply({ behavior: "deny", message: "", interrupt: true }), asked), {
    answer: "no",
    cancelled: true,
  });
});

Deno.test("answerOf refuses a changed input, an unknown behaviour and a failed request", () => {
  const changed = answerOf(
    reply({ behavior: "allow", updatedInput: { command: "rm -rf /" } }),
    asked,
  );
  assert.equal(changed.answer, "no");
  assert.match(changed.reason ?? "", /changed the call's input/);
  assert.match(answerOf(reply({ behavior: "maybe" }), asked).reason ?? "", /"maybe"/);
  assert.match(answerOf(reply(undefined, "boom"), asked).reason ?? "", /failed: boom/);
});

Deno.test("a question is written as can_use_tool in Claude Code's terms and answered by its reply", async () => {
  const lines: Record<string, unknown>[] = [];
  const asker = new StdioAsker((line) => lines.push(line), "/work");
  const question = {
    session: "s",
    agent: "lead",
    callId: "toolu_1",
    tool: "edit_file",
    input: { path: "a.ts", old_string: "x", new_string: "y" },
    asked: "no permission rule allows it",
    suggestion: "Edit(a.ts)",
  };
  const answer = asker.ask(question, new AbortController().signal);
  const request = lines[0] as { request_id: string; request: Record<string, unknown> };
  assert.equal(request.request.subtype, "can_use_tool");
  assert.equal(request.request.tool_name, "Edit");
  assert.deepEqual(request.request.input, {
    file_path: "/work/a.ts",
    old_string: "x",
    new_string: "y",
  });
  assert.deepEqual(request.request.permission_suggestions, [{
    type: "addRules",
    rules: [{ toolName: "Edit", ruleContent: "a.ts" }],
    behavior: "allow",
    destination: "localSettings",
  }]);
  assert.equal(asker.receive({ requestId: "other", response: {} }), false);
  assert.equal(
    asker.receive({ requestId: request.request_id, response: { behavior: "allow" } }),
    true,
  );
  assert.deepEqual(await answer, { answer: "yes" });
});

Deno.test("a cancelled turn or closed input refuses the questions waiting", async () => {
  const lines: Record<string, unknown>[] = [];
  const asker = new StdioAsker((line) => lines.push(line), "/work");
  const question = {
    session: "s",
    agent: "lead",
    callId: "c",
    tool: "bash",
    input: { command: "make" },
    asked: "x",
    suggestion: "Bash(make)",
  };
  const controller = new AbortController();
  const cancelled = asker.ask(question, controller.signal);
  controller.abort();
  assert.deepEqual(await cancelled, {
    answer: "no",
    reason: "the turn was cancelled",
    cancelled: true,
  });
  assert.equal(lines[1]?.type, "control_cancel_request");
  const waiting = asker.ask(question, new AbortController().signal);
  asker.close();
  assert.equal((await waiting).answer, "no");
  assert.equal((await asker.ask(question, new AbortController().signal)).answer, "no");
});
