/**
 * Canonical parts written before, for {@link canonicalChunks}: which members it may take from the
 * memo, and the memo itself. Sound only when what `find` returns is what writing the member
 * again would give.
 */
export interface CanonicalMemo {
  /** Whether the members of `holder` (an object or array) are looked up and kept. */
  memoized(holder: object): boolean;
  /** The canonical JSON, as UTF-8, of `value` (a member of `holder`), if known. */
  find(value: object, holder: object): Uint8Array<ArrayBuffer> | undefined;
  /** Keep what `value` (a member of `holder`) was written as. */
  keep(value: object, holder: object, bytes: Uint8Array<ArrayBuffer>): void;
  /**
   * How many first members of `array` are known, and what they are written as with the commas
   * between them, if any: the members from there on are written after those bytes.
   */
  start?(array: readonly unknown[]): { count: number; bytes: Uint8Array<ArrayBuffer> } | undefined;
  /** The JSON, as UTF-8, of a string of {@link LONG_TEXT} characters or more, when known. */
  text?(value: string): Uint8Array<ArrayBuffer> | undefined;
  /** Keep what a long string was written as. */
  keepText?(value: string, bytes: Uint8Array<ArrayBuffer>): void;
}

/** Strings at least this long are offered to {@link CanonicalMemo.text}. */
export const LONG_TEXT = 256;

/**
 * The JSON of a frozen content block whose keys are in sorted order (as the fold makes them:
 * core/state/message.ts), written once: it is both its canonical JSON and what JSON.stringify
 * writes, so a request's digest and a token estimate share it. Undefined for any other value.
 * Kept by object, as a block is never changed (a request's parts are kept so: _digest_memo.ts).
 */
export function frozenBlockJson(block: object): string | undefined {
  let text = BLOCKS.get(block);
  if (text === undefined) {
    if (!Object.isFrozen(block) || Array.isArray(block) || !sortedPlain(block)) return undefined;
    text = JSON.stringify(block);
    BLOCKS.set(block, text);
  }
  return text;
}

const BLOCKS = new WeakMap<object, string>();

/**
 * JSON with object keys sorted recursively; `undefined` members are dropped as JSON does. The
 * text is the one `JSON.stringify(value, sortingReplacer)` gives, byte for byte (digests of
 * recorded requests depend on it), written directly instead of through sorted copies of every
 * object. Pure; throws TypeError for a BigInt, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value === "object" && value !== null) {
    const native = nativeCanonical(value);
    if (native !== undefined) return native;
  }
  const out: Output = { text: "", chunks: [], memo: undefined };
  if (!write(value, "", undefined, false, out)) return "null";
  return out.text;
}

/** A piece of canonical JSON: text, or the UTF-8 of a part remembered by a {@link CanonicalMemo}. */
export type CanonicalChunk = string | Uint8Array<ArrayBuffer>;

/**
 * {@link canonicalJson} in pieces: text, and the UTF-8 of each member of the objects `memo` names,
 * looked up in (and added to) the memo, so a value that shares most of its parts with one written
 * before costs little more than its new parts, and the same part is the same array each time.
 * Pure apart from the memo; throws TypeError for a BigInt.
 */
export function canonicalChunks(value: unknown, memo: CanonicalMemo): CanonicalChunk[] {
  const out: Output = { text: "", chunks: [], memo };
  if (!write(value, "", undefined, false, out)) out.text = "null";
  if (out.text !== "") out.chunks.push(out.text);
  return out.chunks;
}

/** Text written since the last chunk, and the chunks before it. */
interface Output {
  text: string;
  chunks: CanonicalChunk[];
  memo: CanonicalMemo | undefined;
}

const encoder = new TextEncoder();

/**
 * Write `input` (member `key` of `holder`) to `out`; false when JSON would omit it. `remembered`:
 * whether the memo keeps the members of `holder`.
 */
function write(
  input: unknown,
  key: string | number,
  holder: object | undefined,
  remembered: boolean,
  out: Output,
): boolean {
  let value = input;
  if (
    value !== null && typeof value === "object" &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  ) {
    value = (value as { toJSON(key: string): unknown }).toJSON(String(key));
  }
  if (typeof value === "string" && value.length >= LONG_TEXT && out.memo?.text) {
    let bytes = out.memo.text(value);
    if (bytes === undefined) {
      bytes = encoder.encode(JSON.stringify(value));
      out.memo.keepText?.(value, bytes);
    }
    if (out.text !== "") out.chunks.push(out.text);
    out.chunks.push(bytes);
    out.text = "";
    return true;
  }
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return false;
    out.text += text;
    return true;
  }
  const memo = out.memo;
  if (!remembered || memo === undefined || holder === undefined) {
    writeObject(value, out);
    return true;
  }
  let bytes = memo.find(value, holder);
  if (bytes === undefined) {
    const native = nativeCanonical(value);
    if (native !== undefined) bytes = encoder.encode(native);
    else {
      const own: Output = { text: "", chunks: [], memo };
      writeObject(value, own);
      if (own.text !== "") own.chunks.push(own.text);
      bytes = joinChunks(own.chunks);
    }
    memo.keep(value, holder, bytes);
  }
  if (out.text !== "") out.chunks.push(out.text);
  out.chunks.push(bytes);
  out.text = "";
  return true;
}

function writeObject(value: object, out: Output): void {
  const remembered = out.memo?.memoized(value) ?? false;
  if (Array.isArray(value)) {
    out.text += "[";
    const known = out.memo?.start?.(value);
    const from = known?.count ?? 0;
    if (known && from > 0) {
      if (out.text !== "") out.chunks.push(out.text);
      out.chunks.push(known.bytes);
      out.text = "";
    }
    for (let i = from; i < value.length; i++) {
      if (i > 0) out.text += ",";
      if (!write(value[i], i, value, remembered, out)) out.text += "null";
    }
    out.text += "]";
    return;
  }
  out.text += "{";
  let first = true;
  for (const name of sortedKeys(value)) {
    const before = out.text;
    out.text += `${first ? "" : ","}${JSON.stringify(name)}:`;
    // A member JSON omits writes nothing, so taking its key back is all there is to undo.
    if (write((value as Record<string, unknown>)[name], name, value, remembered, out)) {
      first = false;
    } else out.text = before;
  }
  out.text += "}";
}

/** `chunks` (from `start`, up to `end`) as one UTF-8 array. Pure. */
export function joinChunks(
  chunks: readonly CanonicalChunk[],
  start = 0,
  end = chunks.length,
): Uint8Array<ArrayBuffer> {
  if (end - start === 1) {
    const only = chunks[start] as CanonicalChunk;
    return typeof only === "string" ? encoder.encode(only) : only;
  }
  // Short ASCII text (the JSON between remembered parts) is copied here, other text encoded
  // first: an encoder call costs more than the loop.
  let encoded: Map<number, Uint8Array<ArrayBuffer>> | undefined;
  let size = 0;
  for (let i = start; i < end; i++) {
    const chunk = chunks[i] as CanonicalChunk;
    if (typeof chunk !== "string" || (chunk.length <= SHORT && isAscii(chunk))) {
      size += chunk.length;
      continue;
    }
    const bytes = encoder.encode(chunk);
    (encoded ??= new Map()).set(i, bytes);
    size += bytes.length;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (let i = start; i < end; i++) {
    const chunk = encoded?.get(i) ?? chunks[i] as CanonicalChunk;
    if (typeof chunk !== "string") bytes.set(chunk, at);
    else for (let j = 0; j < chunk.length; j++) bytes[at + j] = chunk.charCodeAt(j);
    at += chunk.length;
  }
  return bytes;
}

/** Text up to this length may be copied without the encoder. */
const SHORT = 64;

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * The canonical JSON of `value` written by JSON.stringify itself, when `value` is plain data (as
 * JSON.parse and object literals make it), else undefined. Given every key the value holds as its
 * property list, JSON.stringify writes each object's members in the order of that list, so a
 * sorted list gives sorted members, at native speed: a new message of a request costs a walk
 * over its objects, not a write of its text in script. Plain data: objects whose prototype is
 * Object's (or none) and whose own properties are all enumerable, arrays, no `toJSON` anywhere,
 * and no key the sorting replacer's copy orders otherwise (integer-like, `__proto__`) or that an
 * object without it would inherit (JSON.stringify reads the listed keys of every object).
 */
function nativeCanonical(value: object): string | undefined {
  // Plain data whose objects already list their keys sorted (as the fold makes a conversation's
  // blocks: core/state/message.ts) is written as it is.
  if (sortedPlain(value)) return JSON.stringify(value);
  const keys = new Set<string>();
  if (!collectKeys(value, keys)) return undefined;
  for (const key of keys) if (key in Object.prototype) return undefined;
  return JSON.stringify(value, [...keys].sort());
}

/**
 * Whether JSON.stringify, with no property list, writes `value` as the sorting replacer does:
 * every object lists its own enumerable keys (all that either writes) in sorted order, none
 * `__proto__` (the replacer's copy cannot hold it); no `toJSON` (the replacer
 * sorts what it returns); and every object is an array or has Object's prototype or none (a
 * boxed primitive is written as its value, a raw JSON object as its text, where the replacer
 * writes their copies as objects).
 */
function sortedPlain(value: object): boolean {
  const kind = plainKind(value);
  if (kind === "array") {
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (typeof item === "object" && item !== null && !sortedPlain(item)) return false;
    }
    return true;
  }
  if (kind === undefined) return false;
  const own = Object.keys(value);
  let before = "";
  for (let i = 0; i < own.length; i++) {
    // Integer-like keys are listed first in numeric order: where that is not their sorted order,
    // the order check finds it.
    const key = own[i] as string;
    if ((i > 0 && before >= key) || key === "__proto__") return false;
    before = key;
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === "object" && member !== null && !sortedPlain(member)) return false;
  }
  return true;
}

/**
 * Whether `value` is a plain array or a plain object as both native writers take them: no
 * `toJSON`; an array of Array's prototype, or an object of Object's prototype or none that is not
 * raw JSON (JSON.rawJSON). Undefined for anything else.
 */
function plainKind(value: object): "array" | "object" | undefined {
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return undefined;
  const prototype = Object.getPrototypeOf(value);
  if (Array.isArray(value)) return prototype === Array.prototype ? "array" : undefined;
  if (prototype === Object.prototype || (prototype === null && !isRawJson(value))) return "object";
  return undefined;
}

const isRawJson = (JSON as { isRawJSON?: (value: unknown) => boolean }).isRawJSON ??
  (() => false);

/** Add the keys of `value`'s objects to `keys`; false when `value` is not plain data. */
function collectKeys(value: object, keys: Set<string>): boolean {
  const kind = plainKind(value);
  if (kind === "array") {
    for (const item of value as unknown[]) {
      if (typeof item === "object" && item !== null && !collectKeys(item, keys)) return false;
    }
    return true;
  }
  if (kind === undefined) return false;
  const own = Object.keys(value);
  if (Object.getOwnPropertyNames(value).length !== own.length) return false;
  for (const key of own) {
    const code = key.charCodeAt(0);
    if ((code >= 48 && code <= 57) || key === "__proto__") return false;
    keys.add(key);
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === "object" && member !== null && !collectKeys(member, keys)) return false;
  }
  return true;
}

/**
 * The keys in the order the sorting replacer's copy enumerates them: sorted, except that a copy
 * built by assignment lists integer-like keys first in numeric order and has no own `__proto__`
 * (assigning it sets the prototype).
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value).sort();
  let plain = true;
  for (const key of keys) {
    const code = key.charCodeAt(0);
    if ((code >= 48 && code <= 57) || key === "__proto__") plain = false;
  }
  if (plain) return keys;
  const copy: Record<string, number> = {};
  for (const key of keys) copy[key] = 0;
  return Object.keys(copy);
}
