import type { createHash as CreateHash, Hash } from "node:crypto";
import type { MessagesRequest } from "../effects/model_client.ts";
import { canonicalJson, joinChunks } from "./canonical_json.ts";
import { messageBytes, writtenAsBefore } from "./_digest_memo.ts";
import { webSha256Hex } from "./_sha256.ts";

/*
 * The `messages-last` digest (core/request/request_body.ts), written for what it is: the body's
 * members but the messages, then the messages, each message's canonical bytes written once (kept
 * by message in _digest_memo.ts) and hashed once. A conversation's next request begins as its
 * last one did, so the hash state after the messages it had (all but its own last message, the
 * request's copy) is kept by the conversation's first message and taken up while the next
 * request holds the same messages, each as it was written. So a round hashes its new messages
 * and its last one, whatever the conversation's length. Everything kept is derived from objects
 * that are not changed in place (or checked to be as they were written), so the digest stays a
 * function of the body's bytes.
 */

/** How a conversation's last request went on: the head, its messages but the last, the hash. */
interface Running {
  head: Uint8Array<ArrayBuffer>;
  messages: readonly object[];
  /** The hash of `head` and `messages` with commas between them (advanced by the next round). */
  hash: Hash;
}

/** By the conversation's first message. */
const RUNNING = new WeakMap<object, Running>();

/** A head as written, by the request's tools (the same array while the pool is). */
interface Head {
  system: unknown;
  model: string;
  maxTokens: number;
  budget: number | undefined;
  bytes: Uint8Array<ArrayBuffer>;
}

const HEADS = new WeakMap<object, Head>();

const encoder = new TextEncoder();
const COMMA = new Uint8Array([0x2c]);
const CLOSE = encoder.encode("]}");

/**
 * The `messages-last` digest of `body`: sha256 (hex) of its canonical JSON with `messages` moved
 * after its other members. With node:crypto's `createHash` (which can go on from a copy of its
 * state); without it, by Web Crypto over the whole text.
 */
export function messagesLastDigest(
  body: MessagesRequest,
  createHash: typeof CreateHash | undefined,
): Promise<string> {
  const { messages, ...rest } = body;
  const head = headBytes(rest);
  const last = messages.length - 1;
  if (!createHash) {
    const parts: Uint8Array<ArrayBuffer>[] = [head];
    messages.forEach((message, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(messageBytes(message, i < last));
    });
    parts.push(CLOSE);
    return webSha256Hex(joinChunks(parts));
  }
  const first = messages[0];
  const run = first && last > 0 ? RUNNING.get(first) : undefined;
  let count = 0;
  if (run && run.head === head) {
    const limit = Math.min(run.messages.length, last);
    while (
      count < limit && messages[count] === run.messages[count] &&
      writtenAsBefore(messages[count] as object)
    ) count++;
  }
  // Taken up where the last request's messages end, or hashed from the head (the messages this
  // request shares with it are found written).
  const goesOn = run !== undefined && run.head === head && count === run.messages.length;
  const hash = goesOn ? run.hash : createHash("sha256").update(head);
  for (let i = goesOn ? count : 0; i < last; i++) {
    if (i > 0) hash.update(COMMA);
    hash.update(messageBytes(messages[i] as object, true));
  }
  let final = hash;
  if (first && last > 0) {
    RUNNING.set(first, { head, messages: messages.slice(0, last), hash });
    final = hash.copy().update(COMMA);
  }
  if (last >= 0) final.update(messageBytes(messages[last] as object, false));
  return Promise.resolve(final.update(CLOSE).digest("hex"));
}

/**
 * `{` and the canonical members of the body but its messages, then `,"messages":[`: written once
 * per set of tools, system prompt, model and limits (a body with other members, each time).
 */
function headBytes(rest: Omit<MessagesRequest, "messages">): Uint8Array<ArrayBuffer> {
  const { tools, system, model, max_tokens: maxTokens, thinking, stream: _stream, ...others } =
    rest;
  const budget = thinking?.type === "enabled" && Object.keys(thinking).length === 2
    ? thinking.budget_tokens
    : undefined;
  // Only a body as buildRequest makes it is kept by its members.
  const plain = Object.keys(others).length === 0 && Array.isArray(tools) &&
    rest.stream === true && (thinking === undefined || budget !== undefined);
  const known = plain ? HEADS.get(tools) : undefined;
  if (
    known && known.system === system && known.model === model && known.maxTokens === maxTokens &&
    known.budget === budget
  ) return known.bytes;
  const text = canonicalJson(rest);
  const bytes = encoder.encode(`${text.slice(0, -1)},"messages":[`);
  if (plain) HEADS.set(tools, { system, model, maxTokens, budget, bytes });
  return bytes;
}
