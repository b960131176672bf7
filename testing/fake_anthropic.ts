/**
 * A fake Anthropic Messages API on loopback for tests: the real SDK talks HTTP to it through
 * `baseURL` / `ANTHROPIC_BASE_URL`. Replies come from a script and can be faults (429, 529,
 * 500, 400 "prompt is too long", a stream cut mid-message, a `max_tokens` stop).
 *
 * Standalone: `deno run -A testing/fake_anthropic.ts --scenario NAME [--port N]` prints the base
 * URL on one line and serves until killed.
 *
 * @module
 */

import { errorResponse, replyResponse, sleep } from "./_fake_responses.ts";
import { type FakeReply, type FakeScript, message } from "./fake_replies.ts";
import { parseMessagesBody, type RecordedRequest } from "./fake_request.ts";
import { namedScenario, scenarioNames } from "./scenarios.ts";

export * from "./fake_replies.ts";
export type {
  FakeContentParam,
  FakeMessageParam,
  FakeRequestBody,
  FakeToolParam,
  RecordedRequest,
} from "./fake_request.ts";

/** How to start a fake server. */
export interface FakeAnthropicOptions {
  /** Replies in order, or a function of the request. */
  readonly script: FakeScript;
  /** Called for every request after it is recorded and before it is answered. */
  readonly onRequest?: (request: RecordedRequest) => void | Promise<void>;
  /** Delay before the first byte of every response, in milliseconds; default 0. */
  readonly latencyMs?: number;
  /** Port on 127.0.0.1; default 0 (any free port). */
  readonly port?: number;
  /**
   * Replies chosen by the request's content before the script is asked, first match wins; a
   * request a rule answers does not count as one of the script's (its `index` does not advance).
   */
  readonly rules?: readonly FakeReplyRule[];
  /**
   * Whether `requests` keeps each request's `body` and `rawBody` (default true). False drops
   * them once the reply is chosen (`onRequest`, the rules and the script still see them), for
   * long sessions whose requests would not fit in memory.
   */
  readonly retainBodies?: boolean;
}

/** A reply for the requests `when` accepts, whatever the script would say. */
export interface FakeReplyRule {
  readonly when: (request: RecordedRequest) => boolean;
  readonly reply: (request: RecordedRequest) => FakeReply;
}

/** Words that ask for a summary: "write a summary", "give a short summary", "summarize". */
const SUMMARY_ASK =
  /\b(?:write|give|provide|produce|make)\b[^.]{0,40}\bsummary\b|\bsummari[sz]e\b/i;

/**
 * Whether a request asks the model for a summary of the conversation (a compaction): the text of
 * its last message, a user's, asks for one ({@link SUMMARY_ASK}). A summary already in the
 * conversation (at its start, after a compaction) does not count. Pure.
 */
export function isSummaryRequest(request: RecordedRequest): boolean {
  const last = request.body?.messages.at(-1);
  if (last?.role !== "user") return false;
  const text = typeof last.content === "string"
    ? last.content
    : last.content.map((block) => block.type === "text" ? String(block.text) : "").join("\n");
  return SUMMARY_ASK.test(text);
}

/** A rule answering every summary request ({@link isSummaryRequest}) with `summary`. */
export function summaryRule(
  summary = "Summary: the user asked for a long task; the files read so far were reviewed.",
): FakeReplyRule {
  return { when: isSummaryRequest, reply: () => message(summary) };
}

/** A running fake server. Close it with `await using` or `close()`. */
export interface FakeAnthropic extends AsyncDisposable {
  /** Base URL such as `http://127.0.0.1:43567`, for `baseURL` or `ANTHROPIC_BASE_URL`. */
  readonly url: string;
  /** Every request received, in arrival order, including rejected ones. */
  readonly requests: RecordedRequest[];
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs` (default 10 s). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Drops open streams and stops the server. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts a fake Anthropic API on `127.0.0.1`. `POST /v1/messages` is answered from the script
 * (SSE when the body has `stream: true`, JSON otherwise); a request without `x-api-key` or
 * `authorization` gets a 401, an invalid body a 400, other routes a 404, a request past the end
 * of an array script a 500 "fake script exhausted after N requests", a script function that
 * throws a 500 with its message. Every response has a `request-id` of `req_fake_<seq>`.
 */
export function startFakeAnthropic(options: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const closing = new AbortController();
  const waiters = new Set<{ count: number; settle: (error?: Error) => void }>();
  let scriptIndex = 0;

  async function handle(req: Request): Promise<Response> {
    const receivedAt = performance.now();
    const receivedAtEpochMs = Date.now();
    const url = new URL(req.url);
    const rawBody = await req.text();
    const isMessages = req.method === "POST" && url.pathname === "/v1/messages";
    const parsed = isMessages ? parseMessagesBody(rawBody) : undefined;
    const seq = requests.length + 1;
    const record: { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] } = {
      seq,
      requestId: `req_fake_${seq}`,
      method: req.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(req.headers),
      body: parsed !== undefined && "body" in parsed ? parsed.body : undefined,
      rawBody,
      receivedAt,
      receivedAtEpochMs,
      finishedAt: undefined,
      finishedAtEpochMs: undefined,
      status: undefined,
      outcome: undefined,
    };
    requests.push(record);
    for (const waiter of waiters) if (requests.length >= waiter.count) waiter.settle();
    try {
      await options.onRequest?.(record);
    } catch (error) {
      return errorResponse(record, 500, "api_error", `onRequest hook threw: ${messageOf(error)}`);
    }
    await sleep(options.latencyMs ?? 0, closing.signal);
    if (!hasAuth(req.headers)) {
      const message = 'Missing authentication: expected an "x-api-key" or "authorization" header';
      return errorResponse(record, 401, "authentication_error", message);
    }
    if (!isMessages) {
      const message = `Not found: ${req.method} ${url.pathname}`;
      return errorResponse(record, 404, "not_found_error", message);
    }
    if (parsed === undefined || "error" in parsed) {
      const message = parsed?.error ?? "Invalid request";
      return errorResponse(record, 400, "invalid_request_error", message);
    }
    const reply = await nextReply(record);
    const stream = parsed.body.stream === true;
    // The response is built first: its usage estimates input tokens from the body's size.
    const response = typeof reply === "string"
      ? errorResponse(record, 500, "api_error", reply)
      : replyResponse(record, reply, parsed.body.model, stream, closing.signal);
    if (options.retainBodies === false) {
      record.body = undefined;
      record.rawBody = "";
    }
    return response;
  }

  /** The script's reply, or why there is none. */
  async function nextReply(record: RecordedRequest): Promise<FakeReply | string> {
    for (const rule of options.rules ?? []) {
      try {
        if (rule.when(record)) return rule.reply(record);
      } catch (error) {
        return `Fake reply rule threw on request ${record.seq}: ${messageOf(error)}`;
      }
    }
    const index = scriptIndex++;
    if (typeof options.script !== "function") {
      return options.script[index] ??
        `fake script exhausted after ${options.script.length} requests`;
    }
    try {
      return await options.script(record, index);
    } catch (error) {
      return `Fake script threw on request ${index}: ${messageOf(error)}`;
    }
  }

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen() {} },
    handle,
  );
  let closed: Promise<void> | undefined;
  function close(): Promise<void> {
    closed ??= (async () => {
      closing.abort();
      for (const waiter of waiters) waiter.settle(new Error("Fake Anthropic server was closed"));
      await server.shutdown();
    })();
    return closed;
  }

  function waitForRequests(count: number, timeoutMs = 10_000): Promise<RecordedRequest[]> {
    if (requests.length >= count) return Promise.resolve(requests.slice(0, count));
    return new Promise((resolve, reject) => {
      const waiter = {
        count,
        settle(error?: Error) {
          clearTimeout(timer);
          waiters.delete(waiter);
          if (error === undefined) resolve(requests.slice(0, count));
          else reject(error);
        },
      };
      const timer = setTimeout(() => {
        const got = requests.length;
        waiter.settle(
          new Error(`Timed out after ${timeoutMs} ms waiting for ${count} requests: got ${got}`),
        );
      }, timeoutMs);
      waiters.add(waiter);
    });
  }

  return Promise.resolve({
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    waitForRequests,
    close,
    [Symbol.asyncDispose]: close,
  });
}

function hasAuth(headers: Headers): boolean {
  const bearer = /^Bearer\s+\S/i.test(headers.get("authorization") ?? "");
  return bearer || (headers.get("x-api-key") ?? "") !== "";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function main(args: readonly string[]): Promise<void> {
  const usage = `Usage: deno run -A testing/fake_anthropic.ts --scenario NAME [--port N]\n` +
    `Scenarios: ${scenarioNames().join(", ")}`;
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args[at + 1];
  };
  const name = value("--scenario");
  const port = Number(value("--port") ?? "0");
  const script = name === undefined ? undefined : namedScenario(name);
  if (args.includes("--help") || script === undefined || !Number.isInteger(port)) {
    if (name !== undefined && script === undefined) console.error(`Unknown scenario "${name}"`);
    console.error(usage);
    Deno.exit(args.includes("--help") ? 0 : 2);
  }
  const fake = await startFakeAnthropic({
    script,
    port,
    onRequest: (r) => console.error(`${r.method} ${r.path} ${r.requestId}`),
  });
  console.log(fake.url);
  await new Promise<void>((resolve) => {
    Deno.addSignalListener("SIGINT", resolve);
    Deno.addSignalListener("SIGTERM", resolve);
  });
  await fake.close();
}

if (import.meta.main) await main(Deno.args);
