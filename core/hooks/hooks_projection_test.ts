import assert from "node:assert/strict";
import { eventFactory } from "../../testing/event_factory.ts";
import { hooksProjection, type HooksSlice } from "./hooks_projection.ts";

const invoked = {
  name: "greet",
  arguments: "world",
  path: "/ws/.claude/commands/greet.md",
  allowedTools: [],
  shell: [],
  files: [],
  prompt: "Say hello to world",
};

Deno.test("hooksProjection: a typed /command is kept for its prompt's hooks, until that prompt is recorded", () => {
  const e = eventFactory();
  let slice: HooksSlice = hooksProjection.initial();
  slice = hooksProjection.evolve(slice, e("command.invoked", invoked));
  assert.deepEqual(slice.s1?.typed?.lead, {
    text: "/greet world",
    expansion: "Say hello to world",
  });
  slice = hooksProjection.evolve(slice, e("user.prompted", { text: "Say hello to world" }));
  assert.equal(slice.s1?.typed?.lead, undefined);
  // A refused command becomes no prompt.
  slice = hooksProjection.evolve(slice, e("command.invoked", { ...invoked, refused: "no" }));
  assert.equal(slice.s1?.typed?.lead, undefined);
});

Deno.test("hooksProjection: a typed skill without arguments is /name; a resume forgets it, not a command", () => {
  const e = eventFactory();
  let slice: HooksSlice = hooksProjection.initial();
  slice = hooksProjection.evolve(
    slice,
    e("skill.invoked", { name: "review", arguments: "", path: "/s" }),
  );
  assert.deepEqual(slice.s1?.typed?.lead, { text: "/review" });
  slice = hooksProjection.evolve(
    slice,
    e("session.resumed", { how: "continue", withPrompt: true, maxTurns: null }),
  );
  assert.equal(slice.s1?.typed?.lead, undefined);
  slice = hooksProjection.evolve(slice, e("command.invoked", invoked));
  slice = hooksProjection.evolve(
    slice,
    e("session.resumed", { how: "continue", withPrompt: true, maxTurns: null }),
  );
  assert.equal(slice.s1?.typed?.lead?.text, "/greet world");
});
