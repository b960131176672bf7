import assert from "node:assert/strict";
import fc from "fast-check";
import type { Envelope } from "../../events/event_types.ts";
import { copyJson } from "./_copy_json.ts";
import { sameEvent, sameJson } from "./same_event.ts";

function recorded(data: Record<string, unknown>): Envelope {
  const event = { v: 1, seq: 7, ts: "t", type: "user.prompted", session: "s", agent: "lead", data };
  return event as unknown as Envelope;
}

Deno.test("a replayed event is the recorded one whatever the order of its keys", () => {
  const want = recorded({ text: "hi", extra: { a: 1, b: [1, 2] } });
  const same = { type: "user.prompted", session: "s", agent: "lead" };
  assert.ok(sameEvent(want, { ...same, data: { extra: { b: [1, 2], a: 1 }, text: "hi" } }));
  assert.ok(
    sameEvent(want, { ...same, data: { text: "hi", gone: undefined, extra: { a: 1, b: [1, 2] } } }),
  );
  assert.ok(!sameEvent(want, { ...same, data: { text: "hi", extra: { a: 1, b: [2, 1] } } }));
  assert.ok(!sameEvent(want, { ...same, agent: "other", data: want.data }));
});

Deno.test("sameJson holds exactly when the value is written as the same JSON, in order", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      const json = JSON.parse(JSON.stringify(b));
      assert.equal(sameJson(a, json), JSON.stringify(a) === JSON.stringify(json));
      assert.ok(sameJson(copyJson(json), json));
    }),
  );
  assert.ok(!sameJson({ a: undefined }, {}), "an undefined member is not JSON");
  assert.ok(!sameJson([undefined], [null]));
  assert.ok(!sameJson({ b: 1, a: 2 }, { a: 2, b: 1 }), "keys in another order");
  assert.ok(!sameJson(NaN, null));
  assert.ok(!sameJson(new Date(0), "1970-01-01T00:00:00.000Z"));
});

Deno.test("a copy of recorded data shares nothing that can change but is the same JSON", () => {
  const data = JSON.parse('{"__proto__":{"x":1},"list":[{"a":"b"}],"s":"text"}');
  const copy = copyJson(data);
  assert.equal(JSON.stringify(copy), JSON.stringify(data));
  assert.notEqual(copy.list, data.list);
  assert.notEqual(copy.list[0], data.list[0]);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
});
