import assert from "node:assert/strict";
import fc from "fast-check";
import { ReleasedList } from "./_released_list.ts";

Deno.test("a released list gives each item by its position until it is let go of", () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.nat({ max: 700 }), fc.constant(-1)), { maxLength: 60 }),
      (steps) => {
        const list = new ReleasedList<string>();
        let released = 0;
        for (const step of steps) {
          // -1 pushes the next item; a number lets go of the items before it.
          if (step === -1) list.push(`item ${list.end}`);
          else {
            list.release(step);
            released = Math.max(released, Math.min(step, list.end));
          }
          assert.equal(list.released, released);
          for (let position = 0; position < list.end + 2; position++) {
            const held = position >= released && position < list.end;
            assert.equal(list.at(position), held ? `item ${position}` : undefined);
          }
          const visited: number[] = [];
          list.forEach((item, position) => {
            assert.equal(item, `item ${position}`);
            visited.push(position);
          });
          assert.deepEqual(
            visited,
            Array.from({ length: list.end - released }, (_, i) => released + i),
          );
        }
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("a released list keeps its positions when it is shortened", () => {
  const list = new ReleasedList<number>();
  for (let i = 0; i < 1_000; i++) list.push(i);
  list.release(600);
  assert.equal(list.at(599), undefined);
  assert.equal(list.at(600), 600);
  assert.equal(list.end, 1_000);
  for (let i = 1_000; i < 1_100; i++) list.push(i);
  assert.equal(list.at(1_099), 1_099);
});
