import assert from "node:assert/strict";
import fc from "fast-check";
import { z } from "zod";
import { createBaseTools } from "./base_tools.ts";
import { isPlainZod, plainInput } from "./_plain_input.ts";
import { loadToolSchema } from "./schema.ts";

/** A value for a member of JSON Schema `schema`: of its type (at its bounds or past them), or not. */
function memberArb(schema: Record<string, unknown>): fc.Arbitrary<unknown> {
  const other = fc.oneof(fc.constant(null), fc.string(), fc.integer(), fc.boolean(), fc.object());
  switch (schema.type) {
    case "string":
      return fc.oneof(fc.string({ maxLength: 3 }), fc.string({ unit: "binary" }), other);
    case "integer":
      return fc.oneof(
        fc.integer({ min: -3, max: 700_000 }),
        fc.constantFrom(0, 1, 600_000, 600_001, 2 ** 53, -(2 ** 53), 1.5, Number.MAX_VALUE),
        other,
      );
    case "number":
      return fc.oneof(fc.double(), other);
    case "boolean":
      return fc.oneof(fc.boolean(), other);
    default:
      return other;
  }
}

/** An input for an object schema: each member present or not, sometimes one it does not have. */
function inputArb(schema: Record<string, unknown>): fc.Arbitrary<unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  const members = Object.fromEntries(
    Object.entries(properties).map(([key, member]) => [key, memberArb(member)]),
  );
  const object = fc.record(members, { requiredKeys: [] }).map((value) => {
    // Members in another order than the schema's, as a model may write them.
    return Object.fromEntries(Object.entries(value).reverse());
  });
  return fc.oneof(
    { weight: 6, arbitrary: object },
    object.chain((value) =>
      fc.tuple(fc.string(), fc.jsonValue()).map(([key, extra]) => ({ ...value, [key]: extra }))
    ),
    fc.constantFrom(null, "text", 3, [], [{}]),
  );
}

Deno.test("a plain base tool's input is taken without zod exactly when zod takes it, as zod gives it", async () => {
  for (const tool of createBaseTools({ workspace: "/nonexistent-workspace" })) {
    const schema = await loadToolSchema(tool);
    const json = tool.inputSchema as Record<string, unknown>;
    assert.ok(isPlainZod(schema), `${tool.name} is marked plain`);
    fc.assert(
      fc.property(inputArb(json), (input) => {
        // zod throws for a few values ({"length": {"toString": null}}); it takes none of them.
        let zod: ReturnType<typeof schema.safeParse>;
        try {
          zod = schema.safeParse(input);
        } catch {
          zod = { success: false } as ReturnType<typeof schema.safeParse>;
        }
        const plain = plainInput(json, input);
        assert.equal(plain !== undefined, zod.success, JSON.stringify(input));
        // The same value, members in the same order.
        if (plain) assert.equal(JSON.stringify(plain.value), JSON.stringify(zod.data));
      }),
      { numRuns: 400 },
    );
  }
});

Deno.test("a zod schema with more than its JSON Schema says is not plain", () => {
  const plain = [
    z.strictObject({ a: z.string().min(1).max(3), b: z.number().int().min(1).optional() }),
    z.strictObject({ c: z.array(z.enum(["x", "y"])).min(1), d: z.boolean(), e: z.number().gt(0) }),
  ];
  const not = [
    z.object({ a: z.string() }), // unknown keys dropped, not refused
    z.strictObject({ a: z.string().refine((s) => s !== "x") }),
    z.strictObject({ a: z.string().default("x") }),
    z.strictObject({ a: z.string().transform((s) => s.trim()) }),
    z.strictObject({ a: z.union([z.string(), z.number()]) }),
    z.strictObject({ a: z.string().regex(/x/) }),
    z.strictObject({ a: z.int32() }),
    z.strictObject({ a: z.nullable(z.string()) }),
  ];
  for (const schema of plain) assert.ok(isPlainZod(schema));
  for (const schema of not) assert.ok(!isPlainZod(schema));
});
