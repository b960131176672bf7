import assert from "node:assert/strict";
import fc from "fast-check";
import { createRedactor, REDACTED } from "./redact.ts";

const SECRET = "sk-ant-api03-abcdefgh";

Deno.test("redactor replaces every occurrence of a secret in string values and keys", () => {
  const redact = createRedactor([SECRET]);
  const line = JSON.stringify({ a: `x ${SECRET} y ${SECRET}`, [SECRET]: [SECRET] });
  assert.equal(
    redact(line),
    JSON.stringify({ a: `x ${REDACTED} y ${REDACTED}`, [REDACTED]: [REDACTED] }),
  );
});

Deno.test("redactor finds a secret in its JSON-escaped and double-escaped forms", () => {
  const secret = 'pa"ss\\word\n42';
  const redact = createRedactor([secret]);
  const once = JSON.stringify({ text: `pw=${secret}` });
  const twice = JSON.stringify({ output: JSON.stringify({ pw: secret }) });
  assert.deepEqual(JSON.parse(redact(once)), { text: `pw=${REDACTED}` });
  assert.deepEqual(JSON.parse(redact(twice)), { output: JSON.stringify({ pw: REDACTED }) });
});

Deno.test("redactor removes the longest secret whole when one contains another", () => {
  const redact = createRedactor(["abcdefgh", "abcdefgh-and-more"]);
  assert.equal(redact('"abcdefgh-and-more"'), `"${REDACTED}"`);
});

Deno.test("redactor ignores empty and short secrets", () => {
  const redact = createRedactor(["", "abc", "1234567"]);
  const line = JSON.stringify({ text: "abc 1234567" });
  assert.equal(redact(line), line);
});

Deno.test("redactor leaves numbers and escape sequences that only look like a secret", () => {
  const redact = createRedactor(["12345678", "token-value"]);
  const line = JSON.stringify({ n: 123456789, text: "\token-value" });
  assert.deepEqual(JSON.parse(redact(line)), { n: 123456789, text: "\token-value" });
});

Deno.test("redacted lines stay valid JSON and no string in them holds the secret", () => {
  const char = fc.oneof(
    fc.constantFrom('"', "\\", "\n", "\t", "\u0001", "/"),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
  );
  const secretArb = fc.string({ unit: char, minLength: 8, maxLength: 16 });
  const textArb = fc.string({ unit: char, maxLength: 12 });
  fc.assert(fc.property(secretArb, textArb, textArb, (secret, before, after) => {
    fc.pre(!secret.includes(REDACTED));
    const text = `${before}${secret}${after}`;
    const line = JSON.stringify({ text, nested: JSON.stringify({ text }), list: [secret] });
    const redacted: unknown = JSON.parse(createRedactor([secret])(line));
    for (const value of allStrings(redacted)) assert.ok(!value.includes(secret), value);
  }));
});

function allStrings(value: unknown): string[] {
  if (typeof value === "string") {
    try {
      return [value, ...allStrings(JSON.parse(value))];
    } catch {
      return [value];
    }
  }
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => [key, ...allStrings(item)]);
}
