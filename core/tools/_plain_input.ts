/**
 * Checking a tool's input without zod, for a tool whose zod schema says no more than its JSON
 * Schema: strict objects, strings, safe integers, finite numbers, booleans, enums and arrays, with
 * their bounds, and no refinement, default or transform (core/tools/base_tool_definitions.json
 * marks such base tools `plainInput`; {@link isPlainZod} decides it when the file is generated).
 * zod takes 10-15 ms to load and build a schema, which a replay that verifies a session of valid
 * calls would pay for nothing, and a session for its first call.
 */

/** A JSON Schema as rein's tool definitions write it. */
type JsonSchema = Record<string, unknown>;

/** The keys {@link plainInput} knows; a schema with any other is left to zod. */
const KNOWN = new Set([
  "type",
  "description",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
]);

/**
 * `input` as zod would give it back when it is valid under `schema` (objects with their members
 * in the schema's order, copied; arrays copied); undefined when it is not, or when `schema` holds
 * something this check does not know: then zod decides, and names what is wrong. Stricter than
 * zod where they might differ (a value zod would take may be left to zod), never laxer. Pure.
 */
export function plainInput(schema: JsonSchema, input: unknown): { value: unknown } | undefined {
  for (const key in schema) if (!KNOWN.has(key)) return undefined;
  const values = schema.enum;
  if (values !== undefined && (!Array.isArray(values) || !values.includes(input))) {
    return undefined;
  }
  switch (schema.type) {
    case "object":
      return plainObject(schema, input);
    case "array":
      return plainArray(schema, input);
    case "string":
      return typeof input === "string" &&
          withinCount(input.length, schema.minLength, schema.maxLength)
        ? { value: input }
        : undefined;
    case "integer":
      return Number.isSafeInteger(input) && withinBounds(input as number, schema)
        ? { value: input }
        : undefined;
    case "number":
      return typeof input === "number" && Number.isFinite(input) && withinBounds(input, schema)
        ? { value: input }
        : undefined;
    case "boolean":
      return typeof input === "boolean" ? { value: input } : undefined;
    default:
      return undefined;
  }
}

function plainObject(schema: JsonSchema, input: unknown): { value: unknown } | undefined {
  const { properties, required } = schema;
  if (schema.additionalProperties !== false || !isRecord(properties)) return undefined;
  if (!isRecord(input) || Array.isArray(input)) return undefined;
  const prototype = Object.getPrototypeOf(input);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(properties, key) || input[key] === undefined) return undefined;
  }
  if (required !== undefined) {
    if (!Array.isArray(required)) return undefined;
    for (const key of required) {
      if (typeof key !== "string" || !Object.hasOwn(input, key)) return undefined;
    }
  }
  const value: Record<string, unknown> = {};
  for (const key of Object.keys(properties)) {
    if (!Object.hasOwn(input, key)) continue;
    const member = properties[key];
    if (!isRecord(member) || key === "__proto__") return undefined;
    const checked = plainInput(member, input[key]);
    if (checked === undefined) return undefined;
    value[key] = checked.value;
  }
  return { value };
}

function plainArray(schema: JsonSchema, input: unknown): { value: unknown } | undefined {
  const { items } = schema;
  if (!isRecord(items) || !Array.isArray(input)) return undefined;
  if (!withinCount(input.length, schema.minItems, schema.maxItems)) return undefined;
  const value: unknown[] = [];
  for (let i = 0; i < input.length; i++) {
    if (!Object.hasOwn(input, i)) return undefined;
    const checked = plainInput(items, input[i]);
    if (checked === undefined) return undefined;
    value.push(checked.value);
  }
  return { value };
}

function withinCount(count: number, min: unknown, max: unknown): boolean {
  if (min !== undefined && (typeof min !== "number" || count < min)) return false;
  return max === undefined || (typeof max === "number" && count <= max);
}

function withinBounds(value: number, schema: JsonSchema): boolean {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (minimum !== undefined && (typeof minimum !== "number" || value < minimum)) return false;
  if (maximum !== undefined && (typeof maximum !== "number" || value > maximum)) return false;
  if (
    exclusiveMinimum !== undefined &&
    (typeof exclusiveMinimum !== "number" || value <= exclusiveMinimum)
  ) return false;
  return exclusiveMaximum === undefined ||
    (typeof exclusiveMaximum === "number" && value < exclusiveMaximum);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** A zod schema's definition, as much of it as {@link isPlainZod} reads. */
interface ZodLike {
  _zod: { def: Record<string, unknown> & { type: string; checks?: readonly ZodLike[] } };
}

/**
 * Whether zod's `schema` accepts exactly what its JSON Schema describes and gives the input back
 * as {@link plainInput} does: strict objects (unknown keys refused), optional members, strings
 * with length bounds, numbers that are safe integers or finite with bounds, booleans, enums,
 * arrays with length bounds; no refinement, default, transform, union or other kind. Reads zod's
 * definitions; used when the tool definitions are generated, not at run time.
 */
export function isPlainZod(schema: unknown): boolean {
  const def = (schema as ZodLike | undefined)?._zod?.def;
  if (def === undefined) return false;
  // A schema such as z.int() or z.email() is itself a check (its definition names it).
  const checks = [
    ...(def.check === undefined ? [] : [def]),
    ...(def.checks ?? []).map((c) => c._zod.def),
  ];
  const only = (kinds: readonly string[]) =>
    checks.every((check) =>
      kinds.includes(String(check.check)) &&
      (check.check !== "number_format" || check.format === "safeint")
    );
  switch (def.type) {
    case "object": {
      const catchall = (def.catchall as ZodLike | undefined)?._zod.def.type;
      const shape = def.shape as Record<string, unknown>;
      return checks.length === 0 && catchall === "never" &&
        Object.values(shape).every(isPlainZod);
    }
    case "optional":
      return checks.length === 0 && isPlainZod(def.innerType);
    case "string":
      return only(["min_length", "max_length"]);
    case "number":
      return only(["number_format", "greater_than", "less_than"]);
    case "boolean":
      return checks.length === 0;
    case "enum":
      return checks.length === 0 &&
        Object.values(def.entries as Record<string, unknown>).every((v) => typeof v === "string");
    case "array":
      return only(["min_length", "max_length"]) && isPlainZod(def.element);
    default:
      return false;
  }
}
