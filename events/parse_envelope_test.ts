import assert from "node:assert/strict";
import { parseEnvelope } from "./parse_envelope.ts";
import { CURRENT_VERSION } from "./event_types.ts";

const VALID = {
  v: CURRENT_VERSION,
  seq: 3,
  ts: "2026-11-22T10:00:00.000Z",
  type: "tool.requested",
  session: "s1",
  agent: "lead",
  data: { callId: "c1", name: "bash", input: { command: "ls" } },
};

Deno.test("a well-formed envelope is returned as it is", () => {
  assert.equal(parseEnvelope(VALID), VALID);
});

Deno.test("each malformed field is named in the reason", () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ v: 1.5 }, '"v" must be an integer, found 1.5'],
    [{ seq: 0 }, '"seq" must be a positive integer, found 0'],
    [{ seq: "3" }, '"seq" must be a positive integer, found "3"'],
    [{ ts: 5 }, '"ts" must be a string, found 5'],
    [{ type: undefined }, 'missing "type"'],
    [{ type: "tool.exploded" }, 'unknown event type "tool.exploded"'],
    [{ session: null }, '"session" must be a string, found null'],
    [{ agent: undefined }, 'missing "agent"'],
    [{ data: [1] }, '"data" must be an object, found [1]'],
    [{ data: "x".repeat(100) }, `"data" must be an object, found "${"x".repeat(36)}...`],
  ];
  for (const [patch, reason] of cases) {
    assert.equal(parseEnvelope({ ...VALID, ...patch }), reason);
  }
});

Deno.test("a line that is not an object is refused", () => {
  assert.equal(parseEnvelope([1, 2]), "expected a JSON object, found [1,2]");
  assert.equal(parseEnvelope(null), "expected a JSON object, found null");
  assert.equal(parseEnvelope(42), "expected a JSON object, found 42");
});
