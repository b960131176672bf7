import type { Hash } from "node:crypto";
import type { MessagesRequest } from "../effects/model_client.ts";
import {
  type CanonicalChunk,
  canonicalJson,
  type CanonicalMemo,
  frozenBlockJson,
  joinChunks,
} from "./canonical_json.ts";
import { loadedCreateHash, webSha256Hex } from "./_sha256.ts";
import { isFrozenMessage } from "../state/message.ts";

/*
 * What a request digest takes from the requests before it, so that a round writes out and hashes
 * only what is new instead of the whole conversation again:
 * - content blocks and tool definitions are never changed in place (the fold replaces a block to
 *   edit it: core/state/context_edits.ts; buildRequest copies the block and the tool it marks for
 *   the cache; definitions are built once per tool), so their canonical bytes are kept by object,
 *   and so are the members of a tool (its schema) for the copy;
 * - a message's content grows in place while it is the last one (and again when the answer after
 *   it is discarded), so its bytes are used only while it holds the same members and the same
 *   blocks as when it was written;
 * - a conversation's next request begins as its last one did, up to the last message (the
 *   request's own copy): those first messages, written with the commas between them, and the hash
 *   state after them are kept by the conversation's first message, and used as far as the next
 *   request still holds the same messages, each as it was written.
 * All of it is derived from the objects alone, so a digest stays a function of the body's bytes.
 */

/** Canonical bytes of content blocks and tool definitions (and their schemas), by object. */
const PARTS = new WeakMap<object, Uint8Array<ArrayBuffer>>();

/** Canonical bytes of a message, and what it held when written. */
const MESSAGES = new WeakMap<object, WrittenMessage>();

/**
 * A message as written: its keys and members in order (key, member, key, …), its blocks; or, for
 * a message that was frozen with its content when written (a projected conversation's, see
 * core/state/message.ts), `frozen`: it holds what it held then, with nothing to compare.
 */
type WrittenMessage =
  & { bytes: Uint8Array<ArrayBuffer> }
  & (
    // `lastBlockAt`: where the last block's `{` is in `bytes`, when there is one.
    | { frozen: true; lastBlockAt: number | undefined }
    | { frozen: false; members: unknown[]; blocks: readonly unknown[] }
  );

/** How a conversation's last request began. */
interface KnownStart {
  /** The chunks of the request before its messages. */
  header: CanonicalChunk[];
  /** Its messages but the last, and what each held when written. */
  messages: object[];
  written: WrittenMessage[];
  /** Those messages' canonical JSON with commas between them, in a buffer with room to grow. */
  bytes: Uint8Array<ArrayBuffer>;
  /** Where each message ends in `bytes`. */
  ends: number[];
  /** The hash state after the header and the messages, when node:crypto was there to keep it. */
  hash: Hash | undefined;
  /** The chunks after the last message (the model, the system prompt, the tools), and as one array. */
  tail: CanonicalChunk[];
  tailBytes: Uint8Array<ArrayBuffer>;
}

const COMMA = new Uint8Array([0x2c]);

/** How each conversation's last request began, by the conversation's first message. */
const STARTS = new WeakMap<object, KnownStart>();

/**
 * The JSON bytes of long strings written lately (system prompt sections, the result in the last
 * message, which the next request has again), emptied when they pass {@link TEXTS_BYTES}.
 */
const TEXTS = new Map<string, Uint8Array<ArrayBuffer>>();
let textsBytes = 0;
const TEXTS_BYTES = 4_000_000;

/** A memo for writing `body` out, and the digest of what was written. */
export interface DigestMemo extends CanonicalMemo {
  /** The SHA-256 (hex) of `chunks`, the canonical chunks of the body written with this memo. */
  digest(chunks: CanonicalChunk[]): Promise<string>;
}

/**
 * The memo of one `sorted` request digest (see the notes above; the `messages-last` digest is
 * core/request/_messages_last.ts, which shares the messages' bytes).
 */
export function digestMemo(body: MessagesRequest): DigestMemo {
  const { messages } = body;
  const first = messages[0];
  const last = messages.at(-1);
  const known = first && messages.length > 1 ? STARTS.get(first) : undefined;
  // Besides the messages and the tools: the content of a message and the members of a tool that
  // are about to be written (a message or a tool not found), so that their blocks are kept.
  const holders = new Set<object>([body.tools]);
  /** How many first messages `known` gave, and their bytes. */
  let count = 0;
  let start: Uint8Array<ArrayBuffer> | undefined;
  /** The bytes of the messages written after those, in order. */
  const written: Uint8Array<ArrayBuffer>[] = [];
  return {
    memoized: (holder) => holder === messages || holders.has(holder),
    start(array) {
      if (array !== messages || !known) return undefined;
      const limit = Math.min(known.messages.length, array.length - 1);
      while (
        count < limit && array[count] === known.messages[count] &&
        holdsSame(array[count] as object, known.written[count] as WrittenMessage)
      ) count++;
      if (count === 0) return undefined;
      start = known.bytes.subarray(0, known.ends[count - 1]);
      return { count, bytes: start };
    },
    find(value, holder) {
      if (holder !== messages) {
        const bytes = PARTS.get(value);
        if (bytes === undefined && holder === body.tools) holders.add(value);
        return bytes;
      }
      const seen = MESSAGES.get(value);
      if (seen && holdsSame(value, seen)) {
        written.push(seen.bytes);
        return seen.bytes;
      }
      const content = (value as { content?: unknown }).content;
      if (Array.isArray(content)) holders.add(content);
      return undefined;
    },
    keep(value, holder, bytes) {
      if (holder === messages) written.push(bytes);
      // The copies of blocks buildRequest makes for this request alone are never seen again (the
      // marked last tool is the same copy for every request: core/request/request_body.ts).
      if (value === last || (holder !== body.tools && Object.hasOwn(value, "cache_control"))) {
        return;
      }
      if (holder !== messages) PARTS.set(value, bytes);
      else keepMessage(value, bytes);
    },
    text: (value) => TEXTS.get(value),
    keepText(value, bytes) {
      textsBytes += value.length + bytes.length;
      if (textsBytes > TEXTS_BYTES) {
        TEXTS.clear();
        textsBytes = value.length + bytes.length;
      }
      TEXTS.set(value, bytes);
    },
    digest(chunks) {
      const createHash = loadedCreateHash();
      const lastBytes = written.at(-1);
      const firstAt = chunks.indexOf((start ?? written[0]) as CanonicalChunk);
      const lastAt = lastBytes ? chunks.lastIndexOf(lastBytes) : -1;
      // The layout canonicalChunks gives the messages: the header, their start, then ",", the bytes
      // of each message after it; anything else is hashed whole and not kept.
      if (
        !first || messages.length < 2 || written.length !== messages.length - count ||
        firstAt < 0 || lastAt <= firstAt || chunks[lastAt - 1] !== "," ||
        !messages.slice(count, -1).every((message) => MESSAGES.has(message))
      ) {
        return createHash
          ? Promise.resolve(createHash("sha256").update(joinChunks(chunks)).digest("hex"))
          : webSha256Hex(joinChunks(chunks));
      }
      const header = chunks.slice(0, firstAt);
      const reuse = known?.hash !== undefined && count === known.messages.length &&
        sameChunks(header, known.header);
      let hash = reuse ? known?.hash : undefined;
      if (!hash && createHash) {
        hash = createHash("sha256").update(joinChunks(header));
        if (start) hash.update(start);
      }
      const entry: KnownStart = known ?? {
        header,
        messages: [],
        written: [],
        bytes: new Uint8Array(0),
        ends: [],
        hash: undefined,
        tail: [],
        tailBytes: new Uint8Array(0),
      };
      const from = count > 0 ? entry.ends[count - 1] as number : 0;
      extend(entry, count, messages.slice(count, -1), written.slice(0, -1));
      entry.header = header;
      entry.hash = hash?.update(entry.bytes.subarray(from, entry.ends.at(-1) ?? 0));
      STARTS.set(first, entry);
      if (!hash) return webSha256Hex(joinChunks(chunks));
      // What follows the messages is the same from round to round until the tools or the system
      // prompt change: joined once, not copied again for every request.
      const tail = chunks.slice(lastAt + 1);
      if (!sameChunks(tail, entry.tail)) {
        entry.tail = tail;
        entry.tailBytes = joinChunks(tail);
      }
      const next = hash.copy().update(COMMA).update(lastBytes as Uint8Array<ArrayBuffer>);
      return Promise.resolve(next.update(entry.tailBytes).digest("hex"));
    },
  };
}

/** Cut `start` to its first `count` messages and add `added` (written as `bytes`) after them. */
function extend(
  start: KnownStart,
  count: number,
  added: readonly object[],
  bytes: readonly Uint8Array<ArrayBuffer>[],
): void {
  start.messages.length = count;
  start.written.length = count;
  start.ends.length = count;
  let end = count > 0 ? start.ends[count - 1] as number : 0;
  const size = end + bytes.reduce((sum, part) => sum + part.length + 1, 0);
  if (size > start.bytes.length) {
    const grown = new Uint8Array(Math.max(size, start.bytes.length * 2));
    grown.set(start.bytes.subarray(0, end));
    start.bytes = grown;
  }
  added.forEach((message, i) => {
    if (end > 0) start.bytes[end++] = 0x2c; // ","
    const part = bytes[i] as Uint8Array<ArrayBuffer>;
    start.bytes.set(part, end);
    end += part.length;
    start.messages.push(message);
    start.written.push(MESSAGES.get(message) as WrittenMessage);
    start.ends.push(end);
  });
}

/**
 * The canonical JSON (UTF-8) of a request's message, as written before when it holds what it held
 * then; `keep` keeps what is written now (not for the request's own copy of its last message).
 */
export function messageBytes(message: object, keep: boolean): Uint8Array<ArrayBuffer> {
  const seen = MESSAGES.get(message);
  if (seen && holdsSame(message, seen)) return seen.bytes;
  if (keep && isFrozenMessage(message)) return writeFrozen(message).bytes;
  const bytes = encoder.encode(canonicalJson(message));
  if (keep) keepMessage(message, bytes);
  return bytes;
}

/**
 * The canonical JSON (UTF-8) of a frozen message (see {@link isFrozenMessage}), kept, and where
 * its last block begins in it: the same bytes as `canonicalJson(message)`, written member by
 * member (`{"content":[` the blocks `],"role":` the role `}`) so that the last block's place is
 * known. Another shape is written whole, with no place.
 */
export function writeFrozen(
  message: object,
): { bytes: Uint8Array<ArrayBuffer>; lastBlockAt: number | undefined } {
  const seen = MESSAGES.get(message);
  if (seen?.frozen) return seen;
  const { content, role } = message as { content: unknown[]; role: unknown };
  const keys = Object.keys(message);
  const prototype = Object.getPrototypeOf(message);
  if (
    keys.length !== 2 || !keys.includes("role") || typeof role !== "string" ||
    content.length === 0 || (prototype !== Object.prototype && prototype !== null) ||
    "toJSON" in message || "toJSON" in content
  ) {
    const written = {
      frozen: true as const,
      bytes: encoder.encode(canonicalJson(message)),
      lastBlockAt: undefined,
    };
    MESSAGES.set(message, written);
    return written;
  }
  let head = '{"content":[';
  for (let i = 0; i < content.length - 1; i++) head += `${blockJson(content[i])},`;
  const text = `${head}${blockJson(content[content.length - 1])}],"role":${JSON.stringify(role)}}`;
  const bytes = encoder.encode(text);
  // Byte offsets are the text's own when it is all ASCII (as long as its UTF-8).
  const lastBlockAt = bytes.length === text.length ? head.length : encoder.encode(head).length;
  const written = { frozen: true as const, bytes, lastBlockAt };
  MESSAGES.set(message, written);
  return written;
}

/** The canonical JSON of a message's block, shared with the token estimate when it is the fold's. */
function blockJson(block: unknown): string {
  const shared = typeof block === "object" && block !== null ? frozenBlockJson(block) : undefined;
  return shared ?? canonicalJson(block);
}

/** Keep `bytes` as what `message` was written as, with what it holds now. */
function keepMessage(message: object, bytes: Uint8Array<ArrayBuffer>): void {
  const content = (message as { content?: unknown }).content;
  if (Object.isFrozen(message) && (!Array.isArray(content) || Object.isFrozen(content))) {
    MESSAGES.set(message, { frozen: true, bytes, lastBlockAt: undefined });
    return;
  }
  const members: unknown[] = [];
  for (const [key, member] of Object.entries(message)) members.push(key, member);
  const blocks = Array.isArray(content) ? [...content] : [];
  MESSAGES.set(message, { frozen: false, members, blocks, bytes });
}

/** Whether `message` was written before and holds what it held then. */
export function writtenAsBefore(message: object): boolean {
  const seen = MESSAGES.get(message);
  return seen !== undefined && holdsSame(message, seen);
}

const encoder = new TextEncoder();

/** Whether `message` has the same keys and members, and the same blocks, as `known` (by identity). */
function holdsSame(message: object, known: WrittenMessage): boolean {
  // This runs for every message of every request. An inherited key (for-in lists those too) is
  // not among the own members kept, so it fails the check, as it should.
  if (known.frozen) return true;
  const { members, blocks } = known;
  let at = 0;
  for (const key in message) {
    if (key !== members[at] || (message as Record<string, unknown>)[key] !== members[at + 1]) {
      return false;
    }
    at += 2;
  }
  if (at !== members.length) return false;
  const content = (message as { content?: unknown }).content;
  if (!Array.isArray(content)) return blocks.length === 0;
  if (content.length !== blocks.length) return false;
  for (let i = 0; i < blocks.length; i++) if (content[i] !== blocks[i]) return false;
  return true;
}

function sameChunks(a: readonly CanonicalChunk[], b: readonly CanonicalChunk[]): boolean {
  return a.length === b.length && a.every((chunk, i) => chunk === b[i]);
}
