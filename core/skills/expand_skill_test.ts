import assert from "node:assert/strict";
import { expandSkill } from "./expand_skill.ts";

Deno.test("expandSkill replaces every $ARGUMENTS with the arguments", () => {
  assert.equal(
    expandSkill({ body: "Fix issue $ARGUMENTS.\nThen close $ARGUMENTS.\n" }, " 42 "),
    "Fix issue 42.\nThen close 42.",
  );
});

Deno.test("expandSkill keeps $ in the arguments as written", () => {
  assert.equal(expandSkill({ body: "Run $ARGUMENTS" }, "echo $$ $& $1"), "Run echo $$ $& $1");
});

Deno.test("a body without $ARGUMENTS gets the arguments appended, and nothing when there are none", () => {
  assert.equal(
    expandSkill({ body: "Review the diff.\n" }, "src/a.ts"),
    "Review the diff.\n\nARGUMENTS: src/a.ts",
  );
  assert.equal(expandSkill({ body: "Review the diff.\n" }, "  "), "Review the diff.");
  assert.equal(expandSkill({ body: "Fix $ARGUMENTS now" }, ""), "Fix  now");
});
