import assert from "node:assert/strict";
import { parseAnswer } from "./permission_prompt.ts";

Deno.test("the permission answer reads numbers, words and a reason for refusing", () => {
  const cases: [string, ReturnType<typeof parseAnswer>][] = [
    ["1", { answer: "yes" }],
    [" y ", { answer: "yes" }],
    ["YES", { answer: "yes" }],
    ["2", { answer: "always" }],
    ["always", { answer: "always" }],
    ["3", { answer: "no" }],
    ["n", { answer: "no" }],
    ["3 use pnpm instead", { answer: "no", reason: "use pnpm instead" }],
    ["no: not on main", { answer: "no", reason: "not on main" }],
    ["", undefined],
    ["maybe", undefined],
    ["1 please", undefined],
    ["4", undefined],
  ];
  for (const [line, expected] of cases) assert.deepEqual(parseAnswer(line), expected, line);
});
