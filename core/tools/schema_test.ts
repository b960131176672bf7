import assert from "node:assert/strict";
import { createBaseTools } from "./base_tools.ts";
import { toolDefinition, validateToolInput } from "./schema.ts";
import type { AnyTool } from "./tool.ts";

const tools = createBaseTools({ workspace: "/nonexistent-workspace" });

function tool(name: string): AnyTool {
  const found = tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`No tool named "${name}"`);
  return found;
}

Deno.test("base tools come in a stable order", () => {
  assert.deepEqual(tools.map((t) => t.name), [
    "bash",
    "read_file",
    "write_file",
    "edit_file",
    "glob",
    "grep",
  ]);
  assert.deepEqual(tools.filter((t) => t.readOnly).map((t) => t.name), [
    "read_file",
    "glob",
    "grep",
  ]);
});

Deno.test("a tool definition carries the JSON Schema without $schema", () => {
  const definition = toolDefinition(tool("read_file"));
  assert.equal(definition.name, "read_file");
  assert.ok(definition.description.length > 100);
  assert.equal("$schema" in definition.input_schema, false);
  assert.deepEqual(Object.keys(definition.input_schema), [
    "type",
    "properties",
    "required",
    "additionalProperties",
  ]);
  assert.deepEqual(definition.input_schema.required, ["path"]);
});

Deno.test("every field the model sees has a description", () => {
  for (const t of tools) {
    const properties = toolDefinition(t).input_schema.properties as Record<
      string,
      { description?: string }
    >;
    for (const [field, schema] of Object.entries(properties)) {
      assert.ok(schema.description, `${t.name}.${field} has no description`);
    }
  }
});

Deno.test("validateToolInput returns the parsed value for valid input", async () => {
  assert.deepEqual(await validateToolInput(tool("read_file"), { path: "a.ts", limit: 10 }), {
    ok: true,
    value: { path: "a.ts", limit: 10 },
  });
});

Deno.test("validateToolInput names each missing or mistyped field", async () => {
  assert.deepEqual(await validateToolInput(tool("read_file"), { limit: "10" }), {
    ok: false,
    message: 'Invalid input for read_file: "path" is required; "limit" must be a number',
  });
});

Deno.test("validateToolInput explains bounds, integers, enums and unknown fields", async () => {
  const check = await validateToolInput(tool("read_file"), {
    path: "",
    offset: 0,
    limit: 1.5,
    file_path: "x",
  });
  assert.deepEqual(check, {
    ok: false,
    message:
      'Invalid input for read_file: "path" must not be empty; "offset" must be at least 1; ' +
      '"limit" must be an integer; unknown field "file_path"',
  });
  assert.deepEqual(await validateToolInput(tool("grep"), { pattern: "x", output_mode: "lines" }), {
    ok: false,
    message:
      'Invalid input for grep: "output_mode" must be one of "files_with_matches", "content", "count"',
  });
  assert.deepEqual(await validateToolInput(tool("bash"), { command: "ls", timeout: 900_000 }), {
    ok: false,
    message: 'Invalid input for bash: "timeout" must be at most 600000',
  });
});

Deno.test("validateToolInput refuses input that is not an object", async () => {
  assert.deepEqual(await validateToolInput(tool("glob"), "**/*.ts"), {
    ok: false,
    message: "Invalid input for glob: expected an object with the tool's fields, not a string",
  });
});

Deno.test("validateToolInput refuses a member whose length zod cannot compare, naming it", async () => {
  // zod's length check throws on this value; the call gets an error result, not a crashed turn.
  const hostile = JSON.parse('{"pattern": {"length": {"toString": null}}}');
  assert.deepEqual(await validateToolInput(tool("grep"), hostile), {
    ok: false,
    message: 'Invalid input for grep: "pattern" must be a string',
  });
  const both = JSON.parse('{"path": {"length": {"toString": null}}, "limit": "10"}');
  assert.deepEqual(await validateToolInput(tool("read_file"), both), {
    ok: false,
    message: 'Invalid input for read_file: "path" must be a string; "limit" must be an integer',
  });
});
