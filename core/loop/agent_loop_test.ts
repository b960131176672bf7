import assert from "node:assert/strict";
import {
  cut,
  maxTokens,
  message,
  overloaded,
  promptTooLong,
  rateLimited,
  serverError,
  text,
  toolUse,
} from "../../testing/fake_anthropic.ts";
import {
  allSixTools,
  faultThen,
  plainAnswer,
  sequentialBash,
  SIX_TOOLS_EDITED,
} from "../../testing/scenarios.ts";
import { startTestSession, types } from "../../testing/test_session.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

Deno.test("a plain answer is one model round between turn.started and turn.ended", async () => {
  await using t = await startTestSession(plainAnswer("Hi there"));
  const result = await t.session.prompt("hello", run());
  assert.deepEqual(result, { reason: "completed", rounds: 1 });
  assert.equal(t.session.lastText, "Hi there");
  assert.deepEqual(types(t.events()), [
    "session.started",
    "user.prompted",
    "turn.started",
    "model.requested",
    "model.responded",
    "turn.ended",
  ]);
  const request = t.fake.requests[0]?.body;
  assert.equal(request?.model, "claude-test");
  assert.equal(request?.stream, true);
});

Deno.test("twenty sequential bash calls each record an intent, then a result", async () => {
  await using t = await startTestSession(sequentialBash(20, (i) => `echo line-${i} >> out.txt`));
  const result = await t.session.prompt("run them", run());
  assert.equal(result.reason, "completed");
  assert.equal(result.rounds, 21);
  const events = t.events();
  const tools = events.filter((e) => e.type === "tool.requested" || e.type === "tool.completed");
  assert.equal(tools.length, 40);
  for (let i = 0; i < 40; i += 2) {
    assert.equal(tools[i]?.type, "tool.requested");
    assert.equal(tools[i + 1]?.type, "tool.completed");
  }
  const lines = (await Deno.readTextFile(`${t.workspace}/out.txt`)).trim().split("\n");
  assert.deepEqual(lines, Array.from({ length: 20 }, (_, i) => `line-${i + 1}`));
});

Deno.test("all six tools run against the workspace", async () => {
  await using t = await startTestSession(allSixTools("notes/fake.txt"));
  const result = await t.session.prompt("use every tool", run());
  assert.equal(result.reason, "completed");
  const completed = t.events().filter((e) => e.type === "tool.completed");
  assert.deepEqual(completed.map((e) => e.type === "tool.completed" && e.data.name), [
    "write_file",
    "read_file",
    "edit_file",
    "glob",
    "grep",
    "bash",
  ]);
  for (const e of completed) {
    assert.equal(e.type === "tool.completed" && e.data.isError, false, JSON.stringify(e.data));
  }
  assert.equal(await Deno.readTextFile(`${t.workspace}/notes/fake.txt`), SIX_TOOLS_EDITED);
});

for (
  const [name, fault, kind] of [
    ["429 with retry-after", rateLimited(0.02), "rate_limited"],
    ["529 overloaded", overloaded(), "overloaded"],
    ["500", serverError(), "server_error"],
    ["a stream cut mid-message", cut(), "stream_cut"],
  ] as const
) {
  Deno.test(`a ${name} is retried and recorded as an attempt`, async () => {
    await using t = await startTestSession(faultThen(fault, plainAnswer("recovered")));
    const result = await t.session.prompt("hi", run());
    assert.equal(result.reason, "completed");
    assert.equal(t.session.lastText, "recovered");
    const failed = t.events().find((e) => e.type === "model.failed");
    assert.ok(failed?.type === "model.failed");
    assert.equal(failed.data.kind, kind);
    assert.equal(failed.data.attempt, 1);
    if (kind === "rate_limited") assert.equal(failed.data.retryInMs, 20);
    const attempts = t.events().flatMap((e) =>
      e.type === "model.requested" ? [e.data.attempt] : []
    );
    assert.deepEqual(attempts, [1, 2]);
  });
}

Deno.test("when retries run out the turn fails with a clear message and the session resumes", async () => {
  await using t = await startTestSession(
    faultThen([overloaded(), overloaded(), overloaded()], plainAnswer("back")),
    { maxAttempts: 3 },
  );
  const result = await t.session.prompt("hi", run());
  assert.equal(result.reason, "failed");
  assert.match(result.message ?? "", /529.*gave up after retrying/);
  assert.equal(t.session.view.status, "failed");
  assert.equal(t.session.hasUnfinishedWork, true);
  const resumed = await t.reopen().resume("resume", undefined, run());
  assert.equal(resumed?.reason, "completed");
  assert.equal(t.session.lastText, "back");
});

Deno.test("a prompt that is too long fails at once without retrying", async () => {
  await using t = await startTestSession(faultThen(promptTooLong(), plainAnswer("never")));
  const result = await t.session.prompt("hi", run());
  assert.equal(result.reason, "failed");
  assert.match(result.message ?? "", /prompt is too long/);
  assert.equal(t.fake.requests.length, 1);
});

Deno.test("an answer cut at the output limit is asked again with the full limit, then continued", async () => {
  const asked: number[] = [];
  await using t = await startTestSession((request) => {
    asked.push(request.body?.max_tokens ?? 0);
    const n = asked.length;
    if (n === 1) return maxTokens("set aside");
    if (n < 4) return maxTokens(`part ${n - 1}, `);
    return message("the end.");
  });
  const result = await t.session.prompt("hi", run());
  assert.equal(result.reason, "completed");
  // 1024 (the session's limit), then the model's full limit (32k for a model rein does not know).
  assert.deepEqual(asked, [1024, 32_000, 32_000, 32_000]);
  assert.equal(t.session.lastText, "part 1, part 2, the end.");
  assert.deepEqual(
    types(t.events()).filter((type) => type.startsWith("model.") && type !== "model.requested"),
    [
      "model.responded",
      "model.discarded",
      "model.switched",
      "model.responded",
      "model.continued",
      "model.responded",
      "model.continued",
      "model.responded",
      "model.switched",
    ],
  );
  assert.equal(t.session.conversation.maxTokens, 1024, "the turn's limit is restored at its end");
  const sent = t.fake.requests[1]?.body?.messages ?? [];
  assert.equal(sent.length, 1, "the set-aside answer is not sent back");
});

Deno.test("continuations stop after three, keeping what the answer had", async () => {
  await using t = await startTestSession(() => maxTokens("more, "));
  const result = await t.session.prompt("hi", run());
  assert.equal(result.reason, "completed");
  assert.equal(t.fake.requests.length, 5, "the first ask, the full-limit ask, three continuations");
  assert.equal(t.session.lastText, "more, more, more, more, ");
});

Deno.test("cancelling during a long bash call kills it, closes the turn, and the session goes on", async () => {
  let asked = 0;
  await using t = await startTestSession(() => {
    asked += 1;
    return asked === 1
      ? message([
        toolUse("t_sleep", "bash", { command: "sleep 30" }),
        toolUse("t_after", "bash", { command: "echo after" }),
      ])
      : message("still here");
  });
  const controller = new AbortController();
  const started = t.session.prompt("sleep", { signal: controller.signal, maxTurns: null });
  await waitFor(() => t.events().some((e) => e.type === "tool.requested"));
  controller.abort();
  const result = await started;
  assert.equal(result.reason, "cancelled");
  const completed = t.events().filter((e) => e.type === "tool.completed");
  assert.deepEqual(completed.map((e) => e.type === "tool.completed" && e.data.outcome), [
    "cancelled",
    "cancelled",
  ]);
  assert.equal(
    t.events().filter((e) => e.type === "tool.requested").length,
    1,
    "the second call never started",
  );
  const next = await t.session.prompt("are you there?", run());
  assert.equal(next.reason, "completed");
  assert.equal(t.session.lastText, "still here");
});

Deno.test("--max-turns bounds a run and leaves a well-formed conversation", async () => {
  await using t = await startTestSession(sequentialBash(5, (i) => `echo ${i}`));
  const result = await t.session.prompt("go", {
    signal: new AbortController().signal,
    maxTurns: 2,
  });
  assert.equal(result.reason, "max_turns");
  assert.equal(result.rounds, 2);
  assert.equal(t.session.conversation.pendingCalls.length, 0);
});

Deno.test("resume closes an unfinished tool call as interrupted and runs calls that never started", async () => {
  await using t = await startTestSession((request) =>
    (request.body?.messages.length ?? 0) === 1
      ? message([
        text("two calls"),
        toolUse("t1", "bash", { command: "echo one" }),
        toolUse("t2", "bash", { command: "echo two >> two.txt" }),
      ])
      : message("finished")
  );
  // Simulate a process that died after recording the first call's intent.
  const { effects } = t.harness.deps;
  const original = effects.runCall;
  effects.runCall = () => new Promise(() => {});
  const dying = t.session.prompt("go", run());
  await waitFor(() => t.events().some((e) => e.type === "tool.requested"));
  effects.runCall = original;
  void dying;
  const result = await t.reopen().resume("continue", undefined, run());
  assert.equal(result?.reason, "completed");
  const t1 = t.events().filter((e) => e.type === "tool.completed" && e.data.callId === "t1");
  assert.equal(t1.length, 1);
  assert.ok(t1[0]?.type === "tool.completed");
  assert.equal(t1[0].data.outcome, "interrupted");
  assert.match(t1[0].data.content, /^Interrupted: outcome unknown/);
  assert.equal(await Deno.readTextFile(`${t.workspace}/two.txt`), "two\n");
  assert.equal(t.session.lastText, "finished");
});

Deno.test("resume with a new prompt closes unfinished work instead of continuing it", async () => {
  await using t = await startTestSession((request) =>
    (request.body?.messages.length ?? 0) === 1
      ? message([
        toolUse("t1", "bash", { command: "echo one" }),
        toolUse("t2", "bash", { command: "touch never.txt" }),
      ])
      : message("ok")
  );
  t.harness.deps.effects.runCall = () => new Promise(() => {});
  void t.session.prompt("go", run());
  await waitFor(() => t.events().some((e) => e.type === "tool.requested"));
  const result = await t.reopen().resume("resume", "do something else", run());
  assert.equal(result?.reason, "completed");
  const closing = t.events().filter((e) => e.type === "tool.completed");
  assert.deepEqual(
    closing.map((e) => e.type === "tool.completed" && [e.data.callId, e.data.outcome]),
    [
      ["t1", "interrupted"],
      ["t2", "not_run"],
    ],
  );
  assert.ok(t.events().some((e) => e.type === "turn.ended" && e.data.reason === "interrupted"));
  await assert.rejects(Deno.stat(`${t.workspace}/never.txt`));
});

async function waitFor(condition: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("Timed out waiting for a condition");
    await new Promise((r) => setTimeout(r, 5));
  }
}

Deno.test("a bad tool input or an unknown tool comes back to the model as an error result", async () => {
  let asked = 0;
  await using t = await startTestSession(() => {
    asked += 1;
    if (asked === 1) {
      return message([
        toolUse("t_bad", "read_file", { path: 42, limit: "many" }),
        toolUse("t_unknown", "teleport", { where: "mars" }),
      ]);
    }
    return message("understood");
  });
  const result = await t.session.prompt("go", run());
  assert.equal(result.reason, "completed");
  const results = t.events().flatMap((e) => e.type === "tool.completed" ? [e.data] : []);
  assert.equal(results[0]?.isError, true);
  assert.match(results[0]?.content ?? "", /^Invalid input for read_file: .*"path"/);
  assert.equal(results[1]?.isError, true);
  assert.match(
    results[1]?.content ?? "",
    /^Unknown tool "teleport". Available tools: bash, read_file/,
  );
  const sent = t.fake.requests[1]?.body?.messages.at(-1);
  assert.equal(sent?.role, "user");
  assert.equal(Array.isArray(sent?.content) && sent.content.filter((b) => b.is_error).length, 2);
});

Deno.test("a session whose turn the user cancelled is not continued by a bare resume", async () => {
  await using t = await startTestSession(plainAnswer("answer"));
  const controller = new AbortController();
  controller.abort();
  const result = await t.session.prompt("never mind", {
    signal: controller.signal,
    maxTurns: null,
  });
  assert.equal(result.reason, "cancelled");
  assert.equal(t.session.hasUnfinishedWork, false);
  assert.equal(await t.reopen().resume("continue", undefined, run()), null);
  assert.equal(t.fake.requests.length, 0);
});

Deno.test("a tool call cut off by max_tokens is not run, and the model is told why", async () => {
  let asked = 0;
  await using t = await startTestSession(() => {
    asked += 1;
    return asked === 1
      ? message([toolUse("w1", "bash", { command: "touch cut.txt" })], { stopReason: "max_tokens" })
      : message("I will make the call again");
  });
  const result = await t.session.prompt("go", run());
  assert.equal(result.reason, "completed");
  assert.equal(t.events().some((e) => e.type === "tool.requested"), false);
  const completed = t.events().find((e) => e.type === "tool.completed");
  assert.ok(completed?.type === "tool.completed");
  assert.match(completed.data.content, /^Not run: your reply hit the output token limit/);
  await assert.rejects(Deno.stat(`${t.workspace}/cut.txt`));
});

Deno.test("resume with a prompt records the resume, the closing results and the prompt in one append", async () => {
  await using t = await startTestSession((request) =>
    (request.body?.messages.length ?? 0) === 1
      ? message([toolUse("t1", "bash", { command: "echo one" })])
      : message("ok")
  );
  t.harness.deps.effects.runCall = () => new Promise(() => {});
  void t.session.prompt("go", run());
  await waitFor(() => t.events().some((e) => e.type === "tool.requested"));
  const appends: string[][] = [];
  const store = t.store;
  const append = store.append.bind(store);
  store.append = (events, options) => {
    appends.push(events.map((e) => e.type));
    return append(events, options);
  };
  await t.reopen().resume("resume", "new direction", run());
  assert.deepEqual(appends[0], [
    "session.resumed",
    "tool.completed",
    "turn.ended",
    "user.prompted",
  ]);
  const sent = t.fake.requests.at(-1)?.body?.messages.at(-1)?.content;
  assert.deepEqual(Array.isArray(sent) && sent.map((b) => b.type), ["tool_result", "text"]);
});

Deno.test("an answer whose only call the history left out ends the turn instead of asking again", async () => {
  await using t = await startTestSession(() => message([toolUse("toolu_x", "", { a: 1 })]));
  const result = await t.session.prompt("go", run());
  assert.equal(result.reason, "completed");
  assert.equal(t.fake.requests.length, 1, "the same request is not sent again");
});

Deno.test("Ctrl-C while waiting to retry cancels the turn cleanly", async () => {
  await using t = await startTestSession(() => overloaded());
  t.harness.deps.effects.sleep = (_ms, signal) =>
    new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
  const controller = new AbortController();
  const running = t.session.prompt("hi", { signal: controller.signal, maxTurns: null });
  while (!t.events().some((e) => e.type === "model.failed")) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  controller.abort();
  const result = await running;
  assert.equal(result.reason, "cancelled");
  assert.equal(t.fake.requests.length, 1, "no retry after the cancel");
  assert.equal(t.events().at(-1)?.type, "turn.ended");
});
