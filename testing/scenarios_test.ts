import Anthropic, { RateLimitError } from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import {
  type FakeAnthropic,
  type FakeRequestBody,
  message,
  overloaded,
  rateLimited,
  type RecordedRequest,
  startFakeAnthropic,
} from "./fake_anthropic.ts";
import {
  allSixTools,
  faultThen,
  lastUserText,
  namedScenario,
  plainAnswer,
  scenarioNames,
  sequentialBash,
  sixToolCalls,
  toolResultCount,
} from "./scenarios.ts";

interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** Plays the client: answers every tool_use with a result until the model stops asking. */
async function converse(fake: FakeAnthropic, prompt: string, maxTurns = 20) {
  const client = new Anthropic({ baseURL: fake.url, apiKey: "sk-test-fake", maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: prompt }];
  const calls: ToolCall[] = [];
  for (let turn = 0; turn < maxTurns; turn++) {
    const reply = await client.messages
      .stream({ model: "claude-test-1", max_tokens: 1024, messages })
      .finalMessage();
    messages.push({ role: "assistant", content: reply.content });
    const uses = reply.content.flatMap((b) => b.type === "tool_use" ? [b] : []);
    if (reply.stop_reason !== "tool_use") {
      const text = reply.content.flatMap((b) => b.type === "text" ? [b.text] : []).join("");
      return { calls, text };
    }
    calls.push(...uses.map(({ id, name, input }) => ({ id, name, input })));
    messages.push({
      role: "user",
      content: uses.map((use) => ({
        type: "tool_result" as const,
        tool_use_id: use.id,
        content: `ran ${use.name}`,
      })),
    });
  }
  throw new Error(`Conversation did not finish within ${maxTurns} turns`);
}

function requestWith(body: FakeRequestBody): RecordedRequest {
  return {
    seq: 1,
    requestId: "req_fake_1",
    method: "POST",
    path: "/v1/messages",
    headers: {},
    body,
    rawBody: JSON.stringify(body),
    receivedAt: 0,
    receivedAtEpochMs: 0,
    finishedAt: undefined,
    finishedAtEpochMs: undefined,
    status: undefined,
    outcome: undefined,
  };
}

const TWO_RESULTS: FakeRequestBody = {
  model: "m",
  max_tokens: 10,
  messages: [
    { role: "user", content: "first prompt" },
    { role: "assistant", content: [{ type: "tool_use", id: "a", name: "bash", input: {} }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: "x" }] },
    { role: "user", content: [{ type: "text", text: "second" }, { type: "text", text: "part" }] },
    { role: "assistant", content: [{ type: "tool_use", id: "b", name: "bash", input: {} }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "b", content: "y" }] },
  ],
};

Deno.test("toolResultCount counts tool_result blocks across the conversation", () => {
  assert.equal(toolResultCount(TWO_RESULTS), 2);
  assert.equal(toolResultCount({ model: "m", max_tokens: 1, messages: [] }), 0);
  assert.equal(toolResultCount(undefined), 0);
});

Deno.test("lastUserText skips tool results and joins text blocks", () => {
  assert.equal(lastUserText(TWO_RESULTS), "second\npart");
  assert.equal(lastUserText({ model: "m", max_tokens: 1, messages: [] }), "");
});

Deno.test("sequentialBash drives n bash calls then finishes", async () => {
  await using fake = await startFakeAnthropic({
    script: sequentialBash(3, (i) => `echo step ${i}`),
  });
  const { calls, text } = await converse(fake, "Run three steps");

  assert.deepEqual(calls, [
    { id: "toolu_bash_1", name: "bash", input: { command: "echo step 1" } },
    { id: "toolu_bash_2", name: "bash", input: { command: "echo step 2" } },
    { id: "toolu_bash_3", name: "bash", input: { command: "echo step 3" } },
  ]);
  assert.equal(text, "Done: ran 3 commands");
  assert.equal(fake.requests.length, 4);
});

Deno.test("sequentialBash answers the same conversation the same way after a restart", async () => {
  const script = sequentialBash(5, (i) => `true ${i}`);
  const before = await script(requestWith(TWO_RESULTS), 0);
  const after = await script(requestWith(TWO_RESULTS), 17);
  assert.deepEqual(before, after);
  assert.equal(before.kind === "message" && before.content[1]?.type, "tool_use");
  assert.deepEqual(before.kind === "message" && before.content[1], {
    type: "tool_use",
    id: "toolu_bash_3",
    name: "bash",
    input: { command: "true 3" },
  });
});

Deno.test("allSixTools uses each of the six tools once, in order, then answers", async () => {
  await using fake = await startFakeAnthropic({ script: allSixTools("notes/a b.txt") });
  const { calls, text } = await converse(fake, "Exercise the tools");

  assert.deepEqual(calls.map((c) => c.name), [
    "write_file",
    "read_file",
    "edit_file",
    "glob",
    "grep",
    "bash",
  ]);
  assert.deepEqual(calls.map((c) => c.input), sixToolCalls("notes/a b.txt").map((c) => c.input));
  assert.deepEqual(calls[5]?.input, { command: "cat 'notes/a b.txt'" });
  assert.equal(calls[0]?.id, "toolu_six_1_write_file");
  assert.equal(text, "Done: used all six tools");
});

Deno.test("faultThen serves its faults first, then delegates", async () => {
  await using fake = await startFakeAnthropic({
    script: faultThen([rateLimited(2), overloaded()], plainAnswer("Recovered")),
  });
  const client = new Anthropic({ baseURL: fake.url, apiKey: "sk-test-fake", maxRetries: 0 });
  const params = {
    model: "claude-test-1",
    max_tokens: 64,
    messages: [{ role: "user" as const, content: "Hi" }],
  };
  const first = await client.messages.create(params).catch((e: unknown) => e);
  assert.ok(first instanceof RateLimitError);
  assert.equal(first.headers.get("retry-after"), "2");
  await assert.rejects(client.messages.create(params), { status: 529 });
  const answer = await client.messages.stream(params).finalMessage();
  assert.deepEqual(answer.content, [{ type: "text", text: "Recovered" }]);
});

Deno.test("faultThen only faults requests matching `when` and passes delegated indexes", async () => {
  const indexes: number[] = [];
  const script = faultThen(
    overloaded(),
    (_request, index) => {
      indexes.push(index);
      return message("ok");
    },
    { when: (request) => toolResultCount(request.body) === 2 },
  );
  const fresh = requestWith({ model: "m", max_tokens: 1, messages: [] });
  assert.equal((await script(fresh, 0)).kind, "message");
  assert.equal((await script(requestWith(TWO_RESULTS), 1)).kind, "error");
  assert.equal((await script(requestWith(TWO_RESULTS), 2)).kind, "message");
  assert.deepEqual(indexes, [0, 1]);
});

Deno.test("every scenario name gives a fresh script and unknown names give none", async () => {
  assert.ok(scenarioNames().includes("bash"));
  for (const name of scenarioNames()) {
    const script = namedScenario(name);
    assert.ok(script !== undefined, name);
    const body: FakeRequestBody = {
      model: "m",
      max_tokens: 1,
      messages: [{ role: "user", content: "hi" }],
    };
    assert.ok(["message", "error", "cut"].includes((await script(requestWith(body), 0)).kind));
  }
  assert.equal(namedScenario("no-such-scenario"), undefined);
  assert.equal(namedScenario("toString"), undefined);
});
