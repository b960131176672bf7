import Anthropic, { BadRequestError, InternalServerError } from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import {
  type FakeAnthropic,
  message,
  startFakeAnthropic,
  text,
  thinking,
  toolUse,
} from "./fake_anthropic.ts";

const PARAMS = {
  model: "claude-test-1",
  max_tokens: 256,
  messages: [{ role: "user" as const, content: "Hi" }],
};

function clientFor(fake: FakeAnthropic): Anthropic {
  return new Anthropic({ baseURL: fake.url, apiKey: "sk-test-fake", maxRetries: 0 });
}

Deno.test("streamed text arrives in several deltas and assembles into the message", async () => {
  await using fake = await startFakeAnthropic({
    script: [message("The quick brown fox jumps over the lazy dog, twice over."), message("x")],
  });
  const deltas: string[] = [];
  const stream = clientFor(fake).messages.stream(PARAMS).on("text", (delta) => deltas.push(delta));
  const final = await stream.finalMessage();

  assert.ok(deltas.length >= 3, `expected several deltas, got ${deltas.length}`);
  assert.equal(deltas.join(""), "The quick brown fox jumps over the lazy dog, twice over.");
  assert.deepEqual(final.content, [{
    type: "text",
    text: "The quick brown fox jumps over the lazy dog, twice over.",
  }]);
  assert.equal(final.model, "claude-test-1");
  assert.equal(final.stop_reason, "end_turn");
  assert.equal(final.id, "msg_fake_1");
  assert.ok(final.usage.input_tokens > 0 && final.usage.output_tokens > 0);
  assert.equal(final.usage.cache_read_input_tokens, 0);
  const { response } = await clientFor(fake).messages.create({ ...PARAMS, stream: true })
    .withResponse();
  assert.equal(response.headers.get("request-id"), "req_fake_2");
  assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
  await response.body?.cancel();
});

Deno.test("tool_use input is reassembled from several input_json_delta chunks", async () => {
  const input = { command: "ls -la && echo 'done'", timeout_ms: 5000, nested: { a: [1, 2] } };
  await using fake = await startFakeAnthropic({
    script: [message([text("Listing."), toolUse("toolu_1", "bash", input)])],
  });
  const partials: string[] = [];
  const stream = clientFor(fake).messages.stream(PARAMS)
    .on("inputJson", (partial) => partials.push(partial));
  const final = await stream.finalMessage();

  assert.ok(partials.length >= 2, `expected several partial_json chunks, got ${partials.length}`);
  assert.equal(partials.join(""), JSON.stringify(input));
  assert.equal(final.stop_reason, "tool_use");
  assert.deepEqual(final.content[1], { type: "tool_use", id: "toolu_1", name: "bash", input });
});

Deno.test("thinking blocks stream with their signature", async () => {
  await using fake = await startFakeAnthropic({
    script: [message([thinking("Let me think about it.", "sig-1"), text("42")])],
  });
  const final = await clientFor(fake).messages.stream(PARAMS).finalMessage();
  assert.deepEqual(final.content, [
    { type: "thinking", thinking: "Let me think about it.", signature: "sig-1" },
    { type: "text", text: "42" },
  ]);
});

Deno.test("a non-streaming request gets the JSON message", async () => {
  await using fake = await startFakeAnthropic({
    script: [message("Plain JSON", { usage: { input_tokens: 7, cache_read_input_tokens: 3 } })],
  });
  const { data, response } = await clientFor(fake).messages.create(PARAMS).withResponse();
  assert.equal(response.headers.get("content-type"), "application/json");
  assert.equal(response.headers.get("request-id"), "req_fake_1");
  assert.deepEqual(data.content, [{ type: "text", text: "Plain JSON" }]);
  assert.equal(data.usage.input_tokens, 7);
  assert.equal(data.usage.cache_read_input_tokens, 3);
  assert.equal(fake.requests[0]?.body?.stream, undefined);
});

Deno.test("requests are recorded with method, path, headers, body and times", async () => {
  await using fake = await startFakeAnthropic({ script: [message("one"), message("two")] });
  const before = performance.now();
  await clientFor(fake).messages.stream(PARAMS).finalMessage();
  await clientFor(fake).messages.create({ ...PARAMS, system: "Be brief" });

  assert.equal(fake.requests.length, 2);
  const [first, second] = fake.requests;
  assert.ok(first !== undefined && second !== undefined);
  assert.equal(first.method, "POST");
  assert.equal(first.path, "/v1/messages");
  assert.equal(first.body?.model, "claude-test-1");
  assert.equal(first.body?.stream, true);
  assert.deepEqual(first.body?.messages, PARAMS.messages);
  assert.equal(second.body?.system, "Be brief");
  assert.equal(first.headers["content-type"], "application/json");
  assert.equal(first.status, 200);
  assert.equal(first.outcome, "complete");
  assert.ok(first.receivedAt >= before);
  assert.ok(first.finishedAt !== undefined && first.finishedAt >= first.receivedAt);
  assert.ok(Math.abs(first.receivedAtEpochMs - Date.now()) < 60_000);
  assert.ok(second.receivedAt >= first.receivedAt);
});

Deno.test("the auth header is recorded for apiKey and for authToken", async () => {
  await using fake = await startFakeAnthropic({ script: [message("a"), message("b")] });
  await clientFor(fake).messages.create(PARAMS);
  const tokenClient = new Anthropic({
    baseURL: fake.url,
    apiKey: null,
    authToken: "tok-test-fake",
    maxRetries: 0,
  });
  await tokenClient.messages.create(PARAMS);

  assert.equal(fake.requests[0]?.headers["authorization"], "Bearer sk-test-fake");
  assert.equal(fake.requests[1]?.headers["authorization"], "Bearer tok-test-fake");
});

Deno.test("a request without credentials gets a 401 authentication_error", async () => {
  await using fake = await startFakeAnthropic({ script: [message("never")] });
  const response = await fetch(`${fake.url}/v1/messages`, {
    method: "POST",
    body: JSON.stringify(PARAMS),
  });
  assert.equal(response.status, 401);
  const body = await response.json();
  assert.equal(body.type, "error");
  assert.equal(body.error.type, "authentication_error");
  assert.equal(fake.requests[0]?.status, 401);
});

Deno.test("x-api-key is accepted, a bad body gets a 400 and other routes a 404", async () => {
  await using fake = await startFakeAnthropic({ script: [message("ok")] });
  const post = (path: string, body: unknown) =>
    fetch(`${fake.url}${path}`, {
      method: "POST",
      headers: { "x-api-key": "sk-test" },
      body: JSON.stringify(body),
    });
  const missing = await post("/v1/messages", { model: "m", messages: [] });
  assert.equal(missing.status, 400);
  assert.match((await missing.json()).error.message, /max_tokens/);
  const unknown = await post("/v1/complete", {});
  assert.equal(unknown.status, 404);
  assert.equal((await unknown.json()).error.type, "not_found_error");
  const ok = await post("/v1/messages", { ...PARAMS });
  assert.equal(ok.status, 200);
  assert.equal((await ok.json()).content[0].text, "ok");
});

Deno.test("an unanswered tool_use gets the API's 400, as after a bad resume", async () => {
  await using fake = await startFakeAnthropic({ script: [message("never")] });
  const error = await clientFor(fake).messages.create({
    ...PARAMS,
    messages: [
      { role: "user", content: "Run it" },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_1", name: "bash", input: {} }],
      },
      { role: "user", content: "Did it work?" },
    ],
  }).then(() => undefined, (e: unknown) => e);

  assert.ok(error instanceof BadRequestError);
  assert.match(error.message, /tool_use` ids were found without `tool_result` .*toolu_1/);
  assert.equal(fake.requests[0]?.body, undefined);
  assert.match(fake.requests[0]?.rawBody ?? "", /toolu_1/);
});

Deno.test("a request past the end of the script gets a clear 500", async () => {
  await using fake = await startFakeAnthropic({ script: [message("only one")] });
  const client = clientFor(fake);
  await client.messages.create(PARAMS);
  const error = await client.messages.create(PARAMS).then(() => undefined, (e: unknown) => e);

  assert.ok(error instanceof InternalServerError);
  assert.equal(error.status, 500);
  assert.match(error.message, /fake script exhausted after 1 requests/);
  assert.equal(fake.requests.length, 2);
  assert.equal(fake.requests[1]?.status, 500);
});

Deno.test("a script function gets each request and its index; a throw becomes a 500", async () => {
  const seen: number[] = [];
  await using fake = await startFakeAnthropic({
    script: (request, index) => {
      seen.push(index);
      if (index === 2) throw new Error("no reply for this one");
      return message(`#${index} ${request.body?.messages.length}`);
    },
  });
  const client = clientFor(fake);
  assert.deepEqual((await client.messages.create(PARAMS)).content[0], {
    type: "text",
    text: "#0 1",
  });
  assert.deepEqual((await client.messages.stream(PARAMS).finalMessage()).content[0], {
    type: "text",
    text: "#1 1",
  });
  await assert.rejects(client.messages.create(PARAMS), /Fake script threw on request 2/);
  assert.deepEqual(seen, [0, 1, 2]);
});

Deno.test("onRequest sees each request before it is answered", async () => {
  const paths: string[] = [];
  await using fake = await startFakeAnthropic({
    script: [message("hi")],
    onRequest: (request) => {
      paths.push(`${request.requestId} ${request.path} ${request.status}`);
    },
  });
  await clientFor(fake).messages.create(PARAMS);
  assert.deepEqual(paths, ["req_fake_1 /v1/messages undefined"]);
});

Deno.test("latencyMs and chunkDelayMs slow the response down", async () => {
  await using fake = await startFakeAnthropic({
    script: [message("abcdef", { chunkDelayMs: 20 })],
    latencyMs: 50,
  });
  await clientFor(fake).messages.stream(PARAMS).finalMessage();
  const [request] = fake.requests;
  // 50 ms latency + 20 ms between each of the 9 events.
  assert.ok(request?.finishedAt !== undefined);
  assert.ok(request.finishedAt - request.receivedAt >= 50 + 8 * 20 - 5);
});

Deno.test("waitForRequests resolves on arrival and times out with a clear message", async () => {
  await using fake = await startFakeAnthropic({ script: [message("hi")] });
  const waiting = fake.waitForRequests(1);
  await clientFor(fake).messages.create(PARAMS);
  assert.equal((await waiting).length, 1);
  await assert.rejects(
    fake.waitForRequests(2, 30),
    /Timed out after 30 ms waiting for 2 requests: got 1/,
  );
});

Deno.test("standalone mode prints the base URL and serves a named scenario", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./fake_anthropic.ts", import.meta.url).pathname,
      "--scenario",
      "echo",
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let out = "";
    while (!out.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    const url = out.trim();
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new Anthropic({ baseURL: url, apiKey: "sk-test", maxRetries: 0 });
    const answer = await client.messages.stream(PARAMS).finalMessage();
    assert.deepEqual(answer.content, [{ type: "text", text: "You said: Hi" }]);
  } finally {
    child.kill("SIGTERM");
    await reader.cancel();
    await child.status;
  }
});
