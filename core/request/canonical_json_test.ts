import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type CanonicalChunk,
  canonicalChunks,
  canonicalJson,
  type CanonicalMemo,
  joinChunks,
} from "./canonical_json.ts";

/** The canonical form as rein first wrote it, which recorded digests depend on. */
function sortingReplacer(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) sorted[key] = (v as Record<string, unknown>)[key];
    return sorted;
  });
}

/** JSON-like values with what JSON writes otherwise: undefined members, odd keys, a Date. */
const valueArb = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(new Date(0)),
    fc.array(tie("value")),
    fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom("10", "2", "01", "__proto__", "a", "é", "")),
      tie("value"),
    ),
  ),
})).value;

function memoOf(parts: WeakMap<object, Uint8Array<ArrayBuffer>>): CanonicalMemo {
  const texts = new Map<string, Uint8Array<ArrayBuffer>>();
  return {
    memoized: (holder) => Array.isArray(holder),
    find: (value) => parts.get(value),
    keep: (value, _holder, bytes) => void parts.set(value, bytes),
    text: (value) => texts.get(value),
    keepText: (value, bytes) => void texts.set(value, bytes),
  };
}

const decode = (chunks: readonly CanonicalChunk[]) => new TextDecoder().decode(joinChunks(chunks));

Deno.test("canonical JSON is the sorting replacer's text for any value", () => {
  fc.assert(
    fc.property(fc.oneof(valueArb, fc.object()), (value) => {
      assert.equal(canonicalJson(value), sortingReplacer(value) ?? "null");
    }),
    { numRuns: 500 },
  );
});

Deno.test("canonical chunks with remembered parts join to the same text, twice", () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(valueArb, fc.string({ minLength: 250, maxLength: 300 }))),
      (value) => {
        const memo = memoOf(new WeakMap());
        const expected = sortingReplacer(value);
        assert.equal(decode(canonicalChunks(value, memo)), expected);
        assert.equal(decode(canonicalChunks(value, memo)), expected);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("a remembered part is the same array the next time", () => {
  const block = { type: "text", text: "héllo" };
  const memo = memoOf(new WeakMap());
  const first = canonicalChunks({ content: [block] }, memo);
  const second = canonicalChunks({ content: [block, { type: "text", text: "more" }] }, memo);
  const remembered = first.find((chunk) => typeof chunk !== "string");
  assert.ok(remembered);
  assert.equal(second.find((chunk) => typeof chunk !== "string"), remembered);
  assert.equal(
    decode(second),
    '{"content":[{"text":"héllo","type":"text"},{"text":"more","type":"text"}]}',
  );
});

Deno.test("canonical JSON sorts keys and drops undefined members as JSON does", () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 2 }], u: undefined }, z: [undefined] }),
    '{"a":{"c":[3,{"e":2,"f":1}],"d":2},"b":1,"z":[null]}',
  );
  assert.throws(() => canonicalJson({ n: 1n }), TypeError);
});

Deno.test("canonical JSON of data JSON.stringify reads otherwise is still the replacer's text", () => {
  // Each of these leaves JSON.stringify's own writing (its keys as the property list) for the
  // write in script: what it would read differs from the keys the replacer's copy holds.
  const hidden = { a: 1 };
  Object.defineProperty(hidden, "b", { value: 2, enumerable: false });
  class Point {
    constructor(readonly x: number, readonly y: number) {}
  }
  const bare = Object.assign(Object.create(null), { b: 1, a: 2 });
  const shared = Object.create({ inherited: 1 });
  shared.own = 2;
  const values: unknown[] = [
    { list: [hidden, { b: 3 }] },
    { point: new Point(1, 2), y: 0 },
    { bare, other: { a: 1 } },
    { shared, inherited: 3 },
    { at: new Date(0), b: { toJSON: () => ({ z: 1, a: 2 }) } },
    { constructor: 1, other: { toString: "x" }, third: {} },
    { holes: [1, , 3], "10": 1, "2": { "01": 1 } },
    [{ b: 1, a: 2 }, "text", 3, null, [{ d: 1, c: 2 }]],
    // Keys already in order, which JSON.stringify may then write without a property list: boxed
    // primitives and raw JSON are written as values there, as objects by the replacer.
    { a: new Number(1), b: new String("x"), c: new Boolean(false) },
    { a: [Object(1n)] },
    { b: { toJSON: () => ({ z: 1, a: 2 }) } },
    { a: JSON.parse('{"__proto__": 1, "b": 2}'), b: { "1": 1, "2": 2, x: 3 } },
    { b: (JSON as { rawJSON?: (text: string) => unknown }).rawJSON?.("12") },
    { a: { a: 1 }, b: new Date(0), c: [hidden, new Point(3, 4), shared] },
  ];
  for (const value of values) assert.equal(canonicalJson(value), sortingReplacer(value));
});
