import assert from "node:assert/strict";
import { describeJsonError, firstErrorOffset } from "./_json_error.ts";

function parseError(text: string): unknown {
  try {
    JSON.parse(text);
  } catch (error) {
    return error;
  }
  throw new Error(`Expected invalid JSON, found valid JSON: ${JSON.stringify(text)}`);
}

const INVALID = [
  '{"a": 1 "b": 2}',
  '{"a": 1,}',
  "[1, 2,]",
  '{"a": tru}',
  '{"a": yes}',
  "{'a': 1}",
  '{"a": 01}',
  '{"a": -}',
  '{"a": 1.}',
  '{"a": 1e}',
  '{"a": "\\x"}',
  '{"a": "\\u12g4"}',
  '{"a\n": 1}',
  '{"a": "x',
  '{"a": 1}}',
  '{"a": 1} x',
  "{a: 1}",
  "",
  "   ",
];

Deno.test("the scanner finds the place the parser reports", () => {
  for (const text of INVALID) {
    const message = (parseError(text) as Error).message;
    const offset = firstErrorOffset(text);
    const reported = /at position (\d+)/.exec(message)?.[1];
    const token = /^Unexpected token '([\s\S]+?)'/.exec(message)?.[1];
    const context = `${JSON.stringify(text)}: ${message}`;
    if (reported !== undefined) assert.equal(offset, Number(reported), context);
    else if (token !== undefined) assert.equal(text[offset ?? -1], token, context);
    else assert.equal(offset, text.length, context);
  }
});

Deno.test("the scanner finds nothing wrong in valid JSON", () => {
  const valid = [
    '{"a": [1, -2.5e+3, true, false, null, "x\\n\\u00e9"], "b": {}}',
    " [] ",
    '"text"',
    "0",
  ];
  for (const text of valid) assert.equal(firstErrorOffset(text), undefined, text);
});

Deno.test("a misspelt literal is placed at its first wrong letter", () => {
  const text = '{\n  "a": nul,\n  "b": 1\n}';

  assert.deepEqual(describeJsonError(text, parseError(text)).position, { line: 2, column: 11 });
});

Deno.test("the reason drops the parser's own position and its echo of the text", () => {
  const misplaced = '{"a": 1 "b": 2}';
  const misspelt = '{"a": tru\n}';

  assert.equal(
    describeJsonError(misplaced, parseError(misplaced)).reason,
    "Expected ',' or '}' after property value",
  );
  assert.equal(describeJsonError(misspelt, parseError(misspelt)).reason, "Unexpected token '\\n'");
});
