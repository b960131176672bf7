import type { createHash as CreateHash, Hash } from "node:crypto";
import type { MessagesRequest } from "../effects/model_client.ts";
import { canonicalJson, joinChunks } from "./canonical_json.ts";
import { messageBytes, writeFrozen, writtenAsBefore } from "./_digest_memo.ts";
import { isFrozenMessage } from "../state/message.ts";
import { webSha256Hex } from "./_sha256.ts";

/*
 * The `messages-last` digest (core/request/request_body.ts), written for what it is: the body's
 * members but the messages, then the messages, each message's canonical bytes written once (kept
 * by message in _digest_memo.ts) and hashed once. A conversation's next request begins as its
 * last one did, so the hash state after the messages it had (all but its own last message, the
 * request's copy) is kept by the conversation's first message and taken up while the next
 * request holds the same messages, each as it was written. So a round hashes its new messages
 * and its last one, whatever the conversation's length. When a message before those changed (a
 * micro-compaction clears old results), hashing starts again from the last state kept before it
 * (one every {@link MARK_EVERY} messages), not from the head. Everything kept is derived from
 * objects that are not changed in place (or checked to be as they were written), so the digest
 * stays a function of the body's bytes.
 */

/** How a conversation's last request went on: the head, its messages but the last, the hash. */
interface Running {
  head: Uint8Array<ArrayBuffer>;
  messages: readonly object[];
  /** The hash of `head` and `messages` with commas between them (advanced by the next round). */
  hash: Hash;
  /** The hash after the first `count` messages, for each count that is a multiple of MARK_EVERY. */
  marks: readonly { count: number; hash: Hash }[];
  /**
   * How many of the first messages were frozen with their content when hashed (see
   * isFrozenMessage): those hold what they held then, and are found again by identity alone.
   */
  frozen: number;
}

/** Messages between two kept hash states. */
const MARK_EVERY = 16;

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

/**
 * By the request's tools, the heads written last (a few: a compaction's summary request, with its
 * own output limit, comes between two of the conversation's requests), the latest first.
 */
const HEADS = new WeakMap<object, Head[]>();

/** Heads kept per set of tools. */
const HEADS_PER_TOOLS = 4;

const encoder = new TextEncoder();
const COMMA = new Uint8Array([0x2c]);
const CLOSE = encoder.encode("]}");
const BREAKPOINT = encoder.encode('"cache_control":{"type":"ephemeral"},');

/**
 * The request's copies of their conversation's last message (core/request/request_body.ts), by
 * copy: the message copied, and whether the copy's last block carries a cache breakpoint. Only
 * copies frozen as they were made from a frozen message are noted, so each stays what it was.
 */
const COPIES = new WeakMap<object, { original: object; marked: boolean }>();

/**
 * Note that `copy` (frozen, with its content and last block) is `original` (frozen, with its
 * content and blocks) with a cache breakpoint on its last block (`marked`), or with the same
 * blocks. Its bytes are then those of the original, which the next request has as it is, with
 * the breakpoint put in: the message is written once, not twice.
 */
export function noteLastCopy(copy: object, original: object, marked: boolean): void {
  if (!isFrozenMessage(copy) || !isFrozenMessage(original)) return;
  const block = original.content.at(-1);
  if (marked && !breakpointGoesFirst(block)) return;
  COPIES.set(copy, { original, marked });
}

/**
 * Whether a copy of `block` with `cache_control` added writes as `block` with the breakpoint's
 * member first, followed by a comma: a frozen plain object whose keys all sort after
 * `cache_control` and whose members JSON all writes.
 */
function breakpointGoesFirst(block: unknown): boolean {
  if (typeof block !== "object" || block === null || !Object.isFrozen(block)) return false;
  if (Object.getPrototypeOf(block) !== Object.prototype || "toJSON" in block) return false;
  const entries = Object.entries(block);
  return entries.length > 0 &&
    entries.every(([key, member]) =>
      key > "cache_control" && member !== undefined && typeof member !== "function" &&
      typeof member !== "symbol"
    );
}

/** The bytes of the request's last message: from its original's when it is a noted copy. */
function lastMessageBytes(message: object): Uint8Array<ArrayBuffer> {
  const copy = COPIES.get(message);
  if (copy === undefined) return messageBytes(message, false);
  const { bytes, lastBlockAt } = writeFrozen(copy.original);
  if (!copy.marked) return bytes;
  if (lastBlockAt === undefined) return messageBytes(message, false);
  const marked = new Uint8Array(bytes.length + BREAKPOINT.length);
  marked.set(bytes.subarray(0, lastBlockAt + 1));
  marked.set(BREAKPOINT, lastBlockAt + 1);
  marked.set(bytes.subarray(lastBlockAt + 1), lastBlockAt + 1 + BREAKPOINT.length);
  return marked;
}

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
      parts.push(i < last ? messageBytes(message, true) : lastMessageBytes(message));
    });
    parts.push(CLOSE);
    return webSha256Hex(joinChunks(parts));
  }
  const first = messages[0];
  const known = first && last > 0 ? RUNNING.get(first) : undefined;
  const run = known?.head === head ? known : undefined;
  // The messages this request shares with the last one, from the start.
  let count = 0;
  if (run) {
    const limit = Math.min(run.messages.length, last);
    const frozen = Math.min(run.frozen, limit);
    while (count < frozen && messages[count] === run.messages[count]) count++;
    if (count === frozen) {
      while (
        count < limit && messages[count] === run.messages[count] &&
        writtenAsBefore(messages[count] as object)
      ) count++;
    }
  }
  // Taken up where the last request's messages end, or from the last hash state kept before the
  // first message that differs, or from the head.
  let from = 0;
  let hash: Hash;
  let marks: { count: number; hash: Hash }[] = [];
  if (run && count === run.messages.length) {
    from = count;
    hash = run.hash;
    marks = run.marks as { count: number; hash: Hash }[];
  } else {
    const kept = run?.marks.filter((mark) => mark.count <= count) ?? [];
    const mark = kept.at(-1);
    from = mark?.count ?? 0;
    hash = mark ? mark.hash.copy() : createHash("sha256").update(head);
    marks = kept;
  }
  let frozen = Math.min(run?.frozen ?? 0, from);
  // An update per part: joining them first measured slower (a copy and an allocation).
  for (let i = from; i < last; i++) {
    const message = messages[i] as object;
    if (i > 0) hash.update(COMMA);
    hash.update(messageBytes(message, true));
    if (frozen === i && isFrozenMessage(message)) frozen++;
    if ((i + 1) % MARK_EVERY === 0) marks.push({ count: i + 1, hash: hash.copy() });
  }
  let final = hash;
  if (first && last > 0) {
    RUNNING.set(first, { head, messages: messages.slice(0, last), hash, marks, frozen });
    final = hash.copy().update(COMMA);
  }
  if (last >= 0) final.update(lastMessageBytes(messages[last] as object));
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
  const found = known?.find((head) =>
    head.system === system && head.model === model && head.maxTokens === maxTokens &&
    head.budget === budget
  );
  if (found) return found.bytes;
  const text = canonicalJson(rest);
  const bytes = encoder.encode(`${text.slice(0, -1)},"messages":[`);
  if (plain) {
    const head = { system, model, maxTokens, budget, bytes };
    HEADS.set(tools, [head, ...(known ?? []).slice(0, HEADS_PER_TOOLS - 1)]);
  }
  return bytes;
}
