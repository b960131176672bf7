import assert from "node:assert/strict";
import { formatNumber, plural } from "./_format.ts";

Deno.test("numbers get thousands separators as en-US would write them", () => {
  for (const n of [0, 7, 999, 1000, 56_789, 1_234_567, -1234]) {
    assert.equal(formatNumber(n), n.toLocaleString("en-US"));
  }
  assert.equal(plural(1, "line"), "1 line");
  assert.equal(plural(1234, "line"), "1,234 lines");
});
