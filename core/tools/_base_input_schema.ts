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
  return definition.input_schema;
}
