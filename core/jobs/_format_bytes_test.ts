import assert from "node:assert/strict";
import { formatBytes } from "./_format_bytes.ts";

Deno.test("bytes are shown in the largest binary unit they reach", () => {
  assert.equal(formatBytes(0), "0 bytes");
  assert.equal(formatBytes(1), "1 byte");
  assert.equal(formatBytes(1023), "1,023 bytes");
  assert.equal(formatBytes(16 * 1024), "16 KiB");
  assert.equal(formatBytes(4 * 1024 * 1024), "4 MiB");
  assert.equal(formatBytes(1.84 * 1024 ** 3), "1.8 GiB");
  assert.equal(formatBytes(123.4 * 1024 ** 2), "123 MiB");
  assert.equal(formatBytes(5 * 1024 ** 5), "5,120 TiB");
});
