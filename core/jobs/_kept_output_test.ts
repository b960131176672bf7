import assert from "node:assert/strict";
import { KeptOutput } from "./_kept_output.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const whole = (kept: KeptOutput) => {
  const { head, note, tail } = kept.parts();
  return decode(new Uint8Array([...head, ...note, ...tail]));
};

Deno.test("output within the cap is kept whole, to the last byte of the cap", () => {
  const kept = new KeptOutput(1024);
  const text = "x".repeat(700) + "\n" + "y".repeat(323);
  for (let at = 0; at < text.length; at += 100) kept.push(encode(text.slice(at, at + 100)));
  assert.equal(kept.totalBytes, 1024);
  assert.deepEqual(kept.parts().droppedBytes, 0);
  assert.equal(whole(kept), text);
});

Deno.test("past the cap, the head and the tail are kept on line boundaries with a note of the bytes cut", () => {
  const kept = new KeptOutput(1024);
  const lines = Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(4, "0")}\n`);
  for (const line of lines) kept.push(encode(line));
  const { head, note, tail, droppedBytes } = kept.parts();
  assert.ok(head.length + note.length + tail.length <= 1024);
  assert.equal(head.length + tail.length + droppedBytes, 10_000);
  assert.ok(decode(head).startsWith("line 0000\n"));
  assert.ok(decode(head).endsWith("\n"));
  assert.ok(decode(tail).endsWith("line 0999\n"));
  assert.match(decode(tail), /^line \d{4}\n/);
  assert.equal(decode(note), `[… ${droppedBytes.toLocaleString("en-US")} bytes cut …]\n`);
  assert.ok(head.length > 400 && tail.length > 400, "both halves are used");
});

Deno.test("one chunk far past the cap is kept as head and tail in bounded memory", () => {
  const kept = new KeptOutput(4096);
  const chunk = encode("abcdefgh".repeat(1 << 17)); // 1 MiB with no newline
  for (let i = 0; i < 20; i++) kept.push(chunk);
  const { head, note, tail, droppedBytes } = kept.parts();
  assert.equal(head.length + note.length + tail.length <= 4096, true);
  assert.equal(head.length, 2048);
  assert.equal(droppedBytes, 20 * (1 << 20) - head.length - tail.length);
  assert.ok(decode(tail).endsWith("abcdefgh"));
  assert.match(decode(note), /^\n\[… [\d,]+ bytes cut …\]\n$/);
});

Deno.test("no cut splits a UTF-8 character", () => {
  const kept = new KeptOutput(1024);
  for (let i = 0; i < 500; i++) kept.push(encode("é€😀"));
  const { head, tail } = kept.parts();
  assert.doesNotMatch(decode(head), /\uFFFD/);
  assert.doesNotMatch(decode(tail), /\uFFFD/);
  assert.ok(decode(head).startsWith("é€😀"));
  assert.ok(decode(tail).endsWith("é€😀"));
});
