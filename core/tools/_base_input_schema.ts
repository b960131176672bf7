import definitions from "./base_tool_definitions.json" with { type: "json" };

/**
 * The input JSON Schema of the base tool `name` as the model sees it, from the generated
 * `base_tool_definitions.json` (`UPDATE_SNAPSHOTS=1 deno test -A core/tools/` writes it; a test
 * checks it against the tools' zod schemas). Throws if the file has no such tool.
 */
export function baseInputSchema(name: string): Record<string, unknown> {
  const definition = definitions.find((candidate) => candidate.name === name);
  if (!definition) {
    throw new Error(`No tool "${name}" in base_tool_definitions.json: regenerate it`);
  }
  if (definition.plainInput) PLAIN.add(definition.input_schema);
  return definition.input_schema;
}

/** The input schemas of base tools whose zod schema says no more than the JSON Schema. */
const PLAIN = new WeakSet<object>();

/**
 * Whether `schema` is a base tool's input schema marked `plainInput` when generated (its zod
 * schema says no more: core/tools/_plain_input.ts), so that an input can be checked against it
 * without zod.
 */
export function isPlainInputSchema(schema: object): boolean {
  return PLAIN.has(schema);
}
