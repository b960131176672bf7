import assert from "node:assert/strict";
import { OutputTail } from "./_output_tail.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("the tail is the last lines of what was pushed, without trailing blank lines", () => {
  const tail = new OutputTail();
  for (let i = 1; i <= 30; i++) tail.push(bytes(`line ${i}\n`));
  tail.push(bytes("\n\n"));
  assert.equal(tail.text(3), "line 28\nline 29\nline 30");
  assert.equal(tail.text().split("\n").length, 20);
});

Deno.test("a long tail is cut to its last characters, at a line start when it can be", () => {
  const tail = new OutputTail();
  tail.push(bytes(`${"a".repeat(100)}\n${"b".repeat(30)}\n${"c".repeat(30)}`));
  assert.equal(tail.text(20, 50), "c".repeat(30));
  assert.equal(tail.text(20, 20), "c".repeat(20));
});

Deno.test("only the last 16 KiB are kept however much is pushed", () => {
  const tail = new OutputTail();
  for (let i = 0; i < 1000; i++) tail.push(bytes(`${"x".repeat(99)}\n`));
  tail.push(bytes("end"));
  assert.equal(tail.text(1), "end");
});
