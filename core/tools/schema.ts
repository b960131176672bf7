import { isPlainInputSchema } from "./_base_input_schema.ts";
import { plainInput } from "./_plain_input.ts";
import { checkJsonSchemaInput } from "./json_schema_input.ts";
import { isRecord } from "../settings/is_record.ts";
import type { z } from "zod";
import type { AnyTool, Tool, Zod } from "./tool.ts";

/** A tool as the Messages API expects it in `tools`. */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** The outcome of checking a model's tool input against the tool's schema. */
export type ToolInputCheck<Input> =
  | { ok: true; value: Input }
  | { ok: false; message: string };

/** JSON Schema keys in the order they are emitted; others follow alphabetically. */
const KEY_ORDER = [
  "type",
  "description",
  "properties",
  "items",
  "required",
  "enum",
  "const",
  "default",
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "additionalProperties",
];

/**
 * The definition the model sees for `tool`: its name, description and input JSON Schema, the
 * precomputed `inputSchema` when the tool has one, else {@link inputJsonSchema} of its schema.
 * Pure. Throws for a tool whose schema is built on first use and that gives no `inputSchema`.
 */
export function toolDefinition(tool: AnyTool): ToolDefinition {
  let inputSchema = tool.inputSchema;
  if (inputSchema === undefined) {
    if (tool.schema === undefined) {
      throw new Error(`Tool "${tool.name}" has neither a schema nor an inputSchema`);
    }
    if (typeof tool.schema === "function") {
      throw new Error(
        `Tool "${tool.name}" builds its schema on first use, so it needs inputSchema`,
      );
    }
    inputSchema = inputJsonSchema(tool.schema);
  }
  return { name: tool.name, description: tool.description, input_schema: inputSchema };
}

/**
 * The JSON Schema of the input `schema` accepts, as the model sees it: the `$schema` key and
 * zod's implicit safe-integer bounds dropped, keys in a stable order. Pure.
 */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = schema.toJSONSchema({
    io: "input",
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  }) as Record<string, unknown>;
  delete json.$schema;
  return orderKeys(json);
}

/**
 * A tool's `schema` built on first use: `build` gets zod's functions once zod is imported, so a
 * tool module written this way does not load zod (~12 ms) when it is loaded. The tool must then
 * give `inputSchema`.
 */
export function lazySchema<Schema extends z.ZodType>(
  build: (z: Zod) => Schema,
): () => Promise<Schema> {
  return () => import("./_zod.ts").then(build);
}

const schemas = new WeakMap<AnyTool, Promise<z.ZodType>>();

/**
 * The tool's zod schema, built the first time it is asked for when the tool builds it on first
 * use, then kept for that tool object. Rejects if building it fails (and tries again next time).
 */
export function loadToolSchema<Input>(tool: Tool<Input>): Promise<z.ZodType<Input>> {
  const { schema } = tool;
  if (schema === undefined) {
    return Promise.reject(new Error(`Tool "${tool.name}" is described by a JSON Schema alone`));
  }
  if (typeof schema !== "function") return Promise.resolve(schema);
  let loaded = schemas.get(tool) as Promise<z.ZodType<Input>> | undefined;
  if (!loaded) {
    loaded = schema();
    schemas.set(tool, loaded);
    loaded.catch(() => schemas.delete(tool));
  }
  return loaded;
}

/**
 * Checks `input` against the tool's schema (built first if it is built on first use). On failure
 * the message names every wrong field, e.g. `Invalid input for read_file: "path" is required;
 * "limit" must be a number`. Rejects only if the schema cannot be built.
 */
export async function validateToolInput<Input>(
  tool: Tool<Input>,
  input: unknown,
): Promise<ToolInputCheck<Input>> {
  // A valid input to a tool whose JSON Schema says all that its zod schema does is taken as zod
  // would give it back, without loading zod; zod checks the others, and names what is wrong.
  const { inputSchema } = tool;
  if (tool.schema === undefined) {
    if (inputSchema === undefined) {
      return { ok: false, message: `Tool ${tool.name} has no schema to check its input against` };
    }
    const checked = await checkJsonSchemaInput(inputSchema, input);
    return checked.ok
      ? { ok: true, value: checked.value as Input }
      : { ok: false, message: `Invalid input for ${tool.name}: ${checked.problems.join("; ")}` };
  }
  if (inputSchema !== undefined && isPlainInputSchema(inputSchema)) {
    const plain = plainInput(inputSchema, input);
    if (plain !== undefined) return { ok: true, value: plain.value as Input };
  }
  const schema = await loadToolSchema(tool);
  let result: ReturnType<typeof schema.safeParse>;
  try {
    result = schema.safeParse(input);
  } catch (error) {
    // zod runs a length check on any value with a `length`, and throws when that length is an
    // object it cannot compare ({"length": {"toString": null}}, which a model can write).
    const problems = inputSchema === undefined ? [] : mistypedMembers(inputSchema, input);
    const why = problems.length > 0 ? problems.join("; ") : `it cannot be checked (${error})`;
    return { ok: false, message: `Invalid input for ${tool.name}: ${why}` };
  }
  if (result.success) return { ok: true, value: result.data };
  const problems = result.error.issues.map((issue) => describeIssue(issue, input));
  return { ok: false, message: `Invalid input for ${tool.name}: ${problems.join("; ")}` };
}

/** `"field" must be a string` for each member of `input` that is not of its declared JSON type. */
function mistypedMembers(schema: Record<string, unknown>, input: unknown): string[] {
  if (!isRecord(input) || Array.isArray(input)) {
    return [`expected an object with the tool's fields, not ${typeName(input)}`];
  }
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const problems: string[] = [];
  for (const [key, member] of Object.entries(properties)) {
    if (!Object.hasOwn(input, key) || !isRecord(member)) continue;
    const value = input[key];
    const type = member.type;
    const fits = type === "integer"
      ? Number.isSafeInteger(value)
      : type === "array"
      ? Array.isArray(value)
      : type === "object"
      ? isRecord(value) && !Array.isArray(value)
      : typeof type !== "string" || typeof value === type;
    if (!fits) {
      problems.push(`"${key}" must be ${article(type === "integer" ? "int" : String(type))}`);
    }
  }
  return problems;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const field = issue.path.length === 0 ? "" : `"${issue.path.map(String).join(".")}"`;
  switch (issue.code) {
    case "invalid_type": {
      if (field === "") return `expected an object with the tool's fields, not ${typeName(input)}`;
      if (valueAt(input, issue.path) === undefined) return `${field} is required`;
      return `${field} must be ${article(issue.expected)}`;
    }
    case "too_small":
      if (issue.origin === "string") {
        return Number(issue.minimum) <= 1
          ? `${field} must not be empty`
          : `${field} must be at least ${issue.minimum} characters long`;
      }
      return `${field} must be at least ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "string") {
        return `${field} must be at most ${issue.maximum} characters long`;
      }
      return `${field} must be at most ${issue.maximum}`;
    case "invalid_value":
      return `${field} must be one of ${
        issue.values.map((value) => JSON.stringify(value)).join(", ")
      }`;
    case "unrecognized_keys":
      return issue.keys.map((key) => `unknown field "${key}"`).join("; ");
    default:
      return field === "" ? issue.message : `${field}: ${issue.message}`;
  }
}

function article(expected: string): string {
  switch (expected) {
    case "int":
      return "an integer";
    case "object":
    case "array":
      return `an ${expected}`;
    default:
      return `a ${expected}`;
  }
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return article(typeof value);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Recursively orders schema keys by KEY_ORDER; `properties` keeps its declaration order. */
function orderKeys(schema: Record<string, unknown>): Record<string, unknown> {
  const rank = (key: string) => {
    const index = KEY_ORDER.indexOf(key);
    return index === -1 ? KEY_ORDER.length : index;
  };
  const keys = Object.keys(schema).sort((a, b) =>
    rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)
  );
  const ordered: Record<string, unknown> = {};
  for (const key of keys) {
    const value = schema[key];
    if (key === "properties" && isRecord(value)) {
      ordered[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, isRecord(sub) ? orderKeys(sub) : sub]),
      );
    } else if (isRecord(value)) {
      ordered[key] = orderKeys(value);
    } else if (Array.isArray(value)) {
      ordered[key] = value.map((item) => (isRecord(item) ? orderKeys(item) : item));
    } else {
      ordered[key] = value;
    }
  }
  return ordered;
}
