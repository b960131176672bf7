import assert from "node:assert/strict";
import { answerOf, StdioAsker } from "./_stdio_asker.ts";

const asked = { command: "npm test" };
const question = {
  session: "s",
  agent: "lead",
  callId: "toolu_1",
  tool: "bash",
  input: asked,
  asked: "no permission rule allows it",
  suggestion: "Bash(npm test *)",
};
const answer = (response: Record<string, unknown> | undefined, error?: string) =>
  answerOf(reply(response, error), question, asked, "/work");
const reply = (response: Record<string, unknown> | undefined, error?: string) => ({
  requestId: "r1",
  response,
  ...(error === undefined ? {} : { error }),
});

Deno.test("answerOf reads allow, allow with a kept rule, deny and interrupt", () => {
  assert.deepEqual(answer({ behavior: "allow", updatedInput: asked }), {
    answer: "yes",
  });
  assert.deepEqual(answer({ behavior: "allow" }), { answer: "yes" });
  const kept = [{ type: "addRules", behavior: "allow", rules: [{ toolName: "Bash" }] }];
  assert.deepEqual(
    answer({ behavior: "allow", updatedInput: asked, updatedPermissions: kept }),
    { answer: "always" },
  );
  assert.deepEqual(answer({ behavior: "deny", message: "no" }), {
    answer: "no",
    reason: "no",
  });
  assert.deepEqual(answer({ behavior: "deny", message: "", interrupt: true }), {
    answer: "no",
    cancelled: true,
  });
});

Deno.test("answerOf runs a changed input (rein's field names), but not for a protected write; refuses an unknown behaviour and a failed request", () => {
  assert.deepEqual(answer({ behavior: "allow", updatedInput: { command: "npm test -- -x" } }), {
    answer: "yes",
    input: { command: "npm test -- -x" },
  });
  const write = {
    ...question,
    tool: "write_file",
    input: { path: "a.txt", content: "a" },
    suggestion: "Edit(a.txt)",
  };
  const shown = { file_path: "/work/a.txt", content: "a" };
  assert.deepEqual(
    answerOf(
      reply({ behavior: "allow", updatedInput: { file_path: "/work/b.txt", content: "b" } }),
      write,
      shown,
      "/work",
    ),
    { answer: "yes", input: { path: "b.txt", content: "b" } },
  );
  const guarded = answerOf(
    reply({ behavior: "allow", updatedInput: { file_path: "/work/.git/config", content: "b" } }),
    { ...write, protectedPath: "/work/.git/hooks/x" },
    shown,
    "/work",
  );
  assert.equal(guarded.answer, "no");
  assert.match(guarded.reason ?? "", /changed the input of a write under \.claude\/ or \.git\//);
  assert.match(answer({ behavior: "maybe" }).reason ?? "", /"maybe"/);
  assert.match(answer(undefined, "boom").reason ?? "", /failed: boom/);
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
