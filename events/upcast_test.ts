import assert from "node:assert/strict";
import { type RawEvent, upcast, UPCASTERS, type UpcasterTable } from "./upcast.ts";

/** A pretend history, for tests only: v0 called the prompt text `prompt`, v1 calls it `text`. */
const RENAME_PROMPT: UpcasterTable = {
  0: (raw) => ({ ...raw, data: renameKey(raw.data, "prompt", "text") }),
};

function renameKey(data: unknown, from: string, to: string): Record<string, unknown> {
  const { [from]: value, ...rest } = data as Record<string, unknown>;
  return { ...rest, [to]: value };
}

const V0: RawEvent = { v: 0, seq: 1, type: "user.prompted", data: { prompt: "hi" } };

Deno.test("the shipped upcaster table is empty while version 1 is the only version", () => {
  assert.deepEqual(UPCASTERS, {});
});

Deno.test("upcast applies the step for each version and stamps the new version", () => {
  assert.deepEqual(upcast(V0, RENAME_PROMPT), {
    v: 1,
    seq: 1,
    type: "user.prompted",
    data: { text: "hi" },
  });
  assert.deepEqual(V0.data, { prompt: "hi" }, "the input is not mutated");
});

Deno.test("upcast chains one step per version up to the target", () => {
  const table: UpcasterTable = {
    ...RENAME_PROMPT,
    1: (raw) => ({ ...raw, data: renameKey(raw.data, "text", "body") }),
    2: (raw) => ({ ...raw, agent: raw.agent ?? "lead" }),
  };
  assert.deepEqual(upcast(V0, table, 3), {
    v: 3,
    seq: 1,
    type: "user.prompted",
    data: { body: "hi" },
    agent: "lead",
  });
});

Deno.test("a line already at the target version is returned as it is", () => {
  const current = { ...V0, v: 1 };
  assert.equal(upcast(current, RENAME_PROMPT), current);
});

Deno.test("upcast names a missing step, a newer version and a non-integer version", () => {
  assert.equal(upcast(V0, {}), "no upcaster from version 0 (this build reads version 1)");
  assert.equal(upcast({ ...V0, v: 2 }, RENAME_PROMPT), "version 2 is newer than 1");
  assert.equal(upcast({ ...V0, v: "1" }), '"v" must be an integer, found "1"');
  assert.equal(upcast({ seq: 1 }), 'missing "v"');
});
