import assert from "node:assert/strict";
import { CappedOutput } from "./_capped_output.ts";

Deno.test("capped output keeps text that fits unchanged", () => {
  const output = new CappedOutput(100);
  output.append("hello\n");
  output.append("world");
  assert.equal(output.render(), "hello\nworld");
});

Deno.test("capped output keeps head and tail on line boundaries and counts what was cut", () => {
  const output = new CappedOutput(40);
  for (let i = 1; i <= 20; i++) output.append(`line ${String(i).padStart(2, "0")}\n`);
  assert.equal(
    output.render(),
    "line 01\nline 02\n[… 16 lines (128 characters) cut …]\nline 19\nline 20\n",
  );
});

Deno.test("capped output cuts a single huge line mid-line", () => {
  const output = new CappedOutput(10);
  output.append("x".repeat(1_000_000));
  assert.equal(output.render(), "xxxxx\n[… 999,990 characters cut …]\nxxxxx");
});
