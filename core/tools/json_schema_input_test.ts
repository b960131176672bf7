import assert from "node:assert/strict";
import { validateToolInput } from "./schema.ts";
import { executeCall } from "./executor.ts";
import type { AnyTool } from "./tool.ts";

/** A tool described by a JSON Schema alone, as an MCP server describes its tools. */
function jsonTool(inputSchema: Record<string, unknown>): AnyTool {
  return {
    name: "mcp__notes__add",
    description: "Adds a note",
    inputSchema,
    kind: "effect",
    readOnly: false,
    summarize: (input: { title?: string }) => input.title ?? "",
    run: (input: unknown) => Promise.resolve({ content: `added ${JSON.stringify(input)}` }),
  };
}

const NOTE = {
  type: "object",
  properties: {
    title: { type: "string", minLength: 1 },
    tags: { type: "array", items: { type: "string" }, uniqueItems: true },
    priority: { type: "integer", minimum: 1, maximum: 5 },
    when: { type: "string", format: "date" },
  },
  required: ["title"],
  additionalProperties: false,
};

Deno.test("a JSON-Schema-only tool's valid input is taken, plain or not", async () => {
  const tool = jsonTool(NOTE);
  assert.deepEqual(await validateToolInput(tool, { title: "x" }), {
    ok: true,
    value: { title: "x" },
  });
  // uniqueItems and format are beyond the plain check: the validator takes them.
  const full = { title: "x", tags: ["a", "b"], priority: 2, when: "2026-11-29" };
  assert.deepEqual(await validateToolInput(tool, full), { ok: true, value: full });
});

Deno.test("a JSON-Schema-only tool's bad input is refused, each problem worded as zod's are", async () => {
  const tool = jsonTool(NOTE);
  assert.deepEqual(await validateToolInput(tool, { priority: 9, tags: ["a", "a"], other: 1 }), {
    ok: false,
    message: 'Invalid input for mcp__notes__add: "title" is required; "tags" must not repeat an ' +
      'item; "priority" must be at most 5; unknown field "other"',
  });
  assert.deepEqual(await validateToolInput(tool, { title: 3 }), {
    ok: false,
    message: 'Invalid input for mcp__notes__add: "title" must be a string',
  });
  assert.deepEqual(await validateToolInput(tool, { title: "", priority: 0 }), {
    ok: false,
    message:
      'Invalid input for mcp__notes__add: "title" must not be empty; "priority" must be at ' +
      "least 1",
  });
  assert.deepEqual(await validateToolInput(tool, "text"), {
    ok: false,
    message:
      "Invalid input for mcp__notes__add: expected an object with the tool's fields, not a string",
  });
});

Deno.test("the executor runs a JSON-Schema-only tool on good input and gives an error result on bad", async () => {
  const tool = jsonTool(NOTE);
  const tools = new Map([[tool.name, tool]]);
  const context = {
    signal: new AbortController().signal,
    session: "s",
    agent: "lead",
    callId: "c1",
    cwd: "/",
    view: () => ({}) as never,
  };
  const good = await executeCall(
    { id: "c1", name: tool.name, input: { title: "hello" } },
    tools,
    context,
    () => 0,
  );
  assert.equal(good.completed.content, 'added {"title":"hello"}');
  assert.equal(good.completed.isError, false);
  const bad = await executeCall(
    { id: "c2", name: tool.name, input: { title: "" } },
    tools,
    { ...context, callId: "c2" },
    () => 0,
  );
  assert.equal(bad.completed.isError, true);
  assert.match(bad.completed.content, /Invalid input for mcp__notes__add: "title"/);
});

Deno.test("a hostile schema is not run: a catastrophic pattern, or one too deep, refuses the call at once", async () => {
  const evil = jsonTool({
    type: "object",
    properties: { x: { type: "string", pattern: "^(a+)+$" } },
  });
  const started = performance.now();
  const check = await validateToolInput(evil, { x: `${"a".repeat(40)}!`, y: 1 });
  assert.equal(check.ok, false);
  assert.match(check.ok ? "" : check.message, /pattern "\^\(a\+\)\+\$" could take too long/);
  assert.ok(performance.now() - started < 5_000);
  let deep: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 100; i++) deep = { type: "object", properties: { a: deep } };
  const nested = await validateToolInput(jsonTool(deep), { a: 1 });
  assert.match(nested.ok ? "" : nested.message, /nested more than 64 deep/);
  // A $ref that leads to itself only costs what the (finite) input does.
  const looping = jsonTool({
    $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } },
    $ref: "#/$defs/node",
  });
  const chain = { next: { next: { next: { next: "end" } } } };
  const loopCheck = await validateToolInput(looping, chain);
  assert.equal(loopCheck.ok, false);
  assert.match(loopCheck.ok ? "" : loopCheck.message, /"next\.next\.next\.next" must be an object/);
});

/** A schema whose definitions each use the next twice (`allOf`): tiny, but it unfolds to 2^n. */
function doubling(n: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { [`d${n}`]: { type: "object" } };
  for (let i = n - 1; i >= 0; i--) {
    defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  }
  return { $defs: defs, $ref: "#/$defs/d0" };
}

Deno.test("a schema whose $refs unfold to too many parts is refused before it runs", async () => {
  // 2^16 checks of the input: seconds; at 2^40 the validator would never finish.
  for (const n of [16, 40]) {
    const check = await validateToolInput(jsonTool(doubling(n)), { title: "x" });
    assert.equal(check.ok, false);
    assert.match(check.ok ? "" : check.message, /unfolds to more than 20000 parts/);
  }
  // A definition shared a few times, and one that recurses over the input, are checked.
  const shared = jsonTool({
    $defs: { tag: { type: "string", minLength: 1 } },
    type: "object",
    properties: { a: { $ref: "#/$defs/tag" }, b: { $ref: "#/$defs/tag" } },
  });
  assert.deepEqual(await validateToolInput(shared, { a: "x", b: "y" }), {
    ok: true,
    value: { a: "x", b: "y" },
  });
  const bad = await validateToolInput(shared, { a: "x", b: "" });
  assert.match(bad.ok ? "" : bad.message, /"b" must not be empty/);
});

Deno.test("a $ref rein cannot follow for sure refuses the call; one into itself does not hang", async () => {
  const refused = async (schema: Record<string, unknown>) => {
    const check = await validateToolInput(jsonTool(schema), { title: "x" });
    assert.equal(check.ok, false);
    return check.ok ? "" : check.message;
  };
  assert.match(
    await refused({ $ref: "https://example.com/schema.json" }),
    /its \$ref "https:\/\/example.com\/schema.json" does not lead into the schema/,
  );
  assert.match(
    await refused({
      type: "object",
      properties: { a: { $id: "https://example.com/a", $ref: "#/$defs/x" } },
    }),
    /its part "https:\/\/example.com\/a" has an \$id of its own/,
  );
  assert.match(
    await refused({
      $defs: { a: { $anchor: "n" }, b: { $anchor: "n", allOf: [doubling(30)] } },
      $ref: "#n",
    }),
    /its anchor "#n" names two parts/,
  );
  // A schema that is only a reference to itself: the validator's recursion ends in an error.
  assert.match(await refused({ $ref: "#" }), /cannot be checked against the tool's schema/);
  assert.match(
    await refused({ type: "object", allOf: [{ $ref: "#" }] }),
    /cannot be checked against the tool's schema/,
  );
});

Deno.test("an array too long to check for repeats is refused; a short one is checked", async () => {
  const tool = jsonTool(NOTE);
  const many = Array.from({ length: 5_000 }, (_, i) => `tag ${i}`);
  const check = await validateToolInput(tool, { title: "x", tags: many });
  assert.equal(check.ok, false);
  assert.match(check.ok ? "" : check.message, /more than 2000 items, too many to check/);
  const repeated = await validateToolInput(tool, { title: "x", tags: ["a", "b", "a"] });
  assert.match(repeated.ok ? "" : repeated.message, /"tags" must not repeat an item/);
  assert.equal((await validateToolInput(tool, { title: "x", tags: ["a", "b"] })).ok, true);
});
