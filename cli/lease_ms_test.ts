import assert from "node:assert/strict";
import { leaseMsOf } from "./lease_ms.ts";

Deno.test("leaseMsOf: REIN_LEASE_MS in whole milliseconds from 300 to an hour, else 15 s", () => {
  assert.equal(leaseMsOf("3000"), 3000);
  assert.equal(leaseMsOf("300"), 300);
  for (const given of [undefined, "", "299", "1.5", "abc", "3600001", "-5"]) {
    assert.equal(leaseMsOf(given), 15_000, String(given));
  }
});
