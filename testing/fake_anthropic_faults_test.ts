import Anthropic, {
  AnthropicError,
  APIError,
  BadRequestError,
  InternalServerError,
  OverloadedError,
  RateLimitError,
} from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import {
  apiError,
  cut,
  type FakeAnthropic,
  maxTokens,
  overloaded,
  promptTooLong,
  rateLimited,
  serverError,
  startFakeAnthropic,
} from "./fake_anthropic.ts";
import { faultThen, plainAnswer } from "./scenarios.ts";

const PARAMS = {
  model: "claude-test-1",
  max_tokens: 256,
  messages: [{ role: "user" as const, content: "Hi" }],
};

function clientFor(fake: FakeAnthropic): Anthropic {
  return new Anthropic({ baseURL: fake.url, apiKey: "sk-test-fake", maxRetries: 0 });
}

function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail("expected the request to fail"),
    (error: unknown) => error,
  );
}

Deno.test("429 surfaces as RateLimitError with a readable retry-after", async () => {
  await using fake = await startFakeAnthropic({ script: [rateLimited(7)] });
  const error = await failure(clientFor(fake).messages.stream(PARAMS).finalMessage());

  assert.ok(error instanceof RateLimitError);
  assert.equal(error.status, 429);
  assert.equal(error.headers.get("retry-after"), "7");
  assert.equal(error.requestID, "req_fake_1");
  assert.equal(error.type, "rate_limit_error");
});

Deno.test("529 surfaces as OverloadedError and 500 as InternalServerError", async () => {
  await using fake = await startFakeAnthropic({ script: [overloaded(), serverError()] });
  const client = clientFor(fake);
  const busy = await failure(client.messages.create(PARAMS));
  const broken = await failure(client.messages.stream(PARAMS).finalMessage());

  assert.ok(busy instanceof OverloadedError);
  assert.equal(busy.status, 529);
  assert.equal(busy.type, "overloaded_error");
  assert.ok(broken instanceof InternalServerError);
  assert.equal(broken.status, 500);
  assert.equal(broken.type, "api_error");
});

Deno.test("a custom error keeps its status, type and message", async () => {
  await using fake = await startFakeAnthropic({
    script: [apiError(403, { message: "Nope" })],
  });
  const error = await failure(clientFor(fake).messages.create(PARAMS));
  assert.ok(error instanceof APIError);
  assert.equal(error.status, 403);
  assert.equal(error.type, "permission_error");
  assert.equal(error.apiMessage, "Nope");
});

Deno.test("prompt too long is a 400 invalid_request_error with the API's message", async () => {
  await using fake = await startFakeAnthropic({ script: [promptTooLong()] });
  const error = await failure(clientFor(fake).messages.stream(PARAMS).finalMessage());

  assert.ok(error instanceof BadRequestError);
  assert.equal(error.type, "invalid_request_error");
  assert.equal(error.apiMessage, "prompt is too long: 210000 tokens > 200000 maximum");
});

Deno.test("max_tokens is reported as the stop reason", async () => {
  await using fake = await startFakeAnthropic({ script: [maxTokens("Half an ans"), maxTokens()] });
  const streamed = await clientFor(fake).messages.stream(PARAMS).finalMessage();
  const json = await clientFor(fake).messages.create(PARAMS);
  assert.equal(streamed.stop_reason, "max_tokens");
  assert.deepEqual(streamed.content, [{ type: "text", text: "Half an ans" }]);
  assert.equal(json.stop_reason, "max_tokens");
});

Deno.test("a cut stream rejects finalMessage after the first events arrived", async () => {
  await using fake = await startFakeAnthropic({ script: [cut(4)] });
  const deltas: string[] = [];
  const stream = clientFor(fake).messages.stream(PARAMS).on("text", (d) => deltas.push(d));
  const error = await failure(stream.finalMessage());

  assert.ok(error instanceof AnthropicError);
  assert.match(error.message, /error reading a body from connection/);
  assert.equal(deltas.length, 1);
  assert.equal(fake.requests[0]?.outcome, "cut");
});

Deno.test("a cut with a clean ending rejects as a stream without message_stop", async () => {
  await using fake = await startFakeAnthropic({ script: [cut(5, undefined, { ending: "clean" })] });
  const error = await failure(clientFor(fake).messages.stream(PARAMS).finalMessage());
  assert.ok(error instanceof AnthropicError);
  assert.match(error.message, /stream ended without producing a Message/);
});

Deno.test("a cut holds the connection open before dropping it", async () => {
  await using fake = await startFakeAnthropic({ script: [cut(4, undefined, { holdMs: 200 })] });
  let firstTextAt: number | undefined;
  const stream = clientFor(fake).messages.stream(PARAMS).on("text", () => {
    firstTextAt ??= performance.now();
  });
  await failure(stream.finalMessage());

  const request = fake.requests[0];
  assert.ok(firstTextAt !== undefined && request?.finishedAt !== undefined);
  assert.ok(request.finishedAt - firstTextAt >= 150, "the text arrived well before the drop");
});

Deno.test("a cut non-streaming reply rejects with a truncated body", async () => {
  await using fake = await startFakeAnthropic({ script: [cut()] });
  const error = await failure(clientFor(fake).messages.create(PARAMS));
  // SDK 1.12 lets fetch's own error through when a JSON body is cut short.
  assert.ok(error instanceof TypeError);
  assert.match(error.message, /error reading a body/);
});

Deno.test("a cut with an errorType sends an SSE error event", async () => {
  await using fake = await startFakeAnthropic({
    script: [cut(3, undefined, { errorType: "overloaded_error" })],
  });
  const error = await failure(clientFor(fake).messages.stream(PARAMS).finalMessage());
  assert.ok(error instanceof APIError);
  assert.equal(error.type, "overloaded_error");
});

Deno.test("close() drops a held stream instead of waiting for it", async () => {
  const fake = await startFakeAnthropic({ script: [cut(4, undefined, { holdMs: 60_000 })] });
  const pending = failure(clientFor(fake).messages.stream(PARAMS).finalMessage());
  await fake.waitForRequests(1);
  await fake.close();
  assert.ok((await pending) instanceof AnthropicError);
  assert.equal(fake.requests[0]?.outcome, "dropped");
});

Deno.test("a client killed mid-stream is recorded as dropped and a restarted one carries on", async () => {
  await using fake = await startFakeAnthropic({
    script: faultThen(cut(4, undefined, { holdMs: 30_000 }), plainAnswer("Carried on")),
  });
  const client = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(client, CLIENT_SCRIPT);
    const run = (stdout: "piped" | "null") =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--config", CONFIG, client, fake.url],
        stdout,
        stderr: "null",
      });
    const killed = run("piped").spawn();
    const reader = killed.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assert.match((await reader.read()).value ?? "", /^text /, "the client saw the first delta");
    killed.kill("SIGKILL");
    await killed.status;
    await reader.cancel();
    while (fake.requests[0]?.outcome === undefined) await new Promise((r) => setTimeout(r, 5));
    assert.equal(fake.requests[0]?.outcome, "dropped");

    const restarted = await run("piped").output();
    assert.equal(restarted.code, 0);
    assert.match(new TextDecoder().decode(restarted.stdout), /final Carried on/);
    assert.equal(fake.requests[1]?.outcome, "complete");
  } finally {
    await Deno.remove(client);
  }
});

const CONFIG = new URL("../deno.json", import.meta.url).pathname;

const CLIENT_SCRIPT = `
import Anthropic from "@anthropic-ai/sdk";
const client = new Anthropic({ baseURL: Deno.args[0], apiKey: "sk-test", maxRetries: 0 });
const params = { model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };
const final = await client.messages.stream(params).on("text", (t) => console.log("text " + t))
  .finalMessage();
console.log("final " + final.content.map((b) => b.type === "text" ? b.text : "").join(""));
`;
