/**
 * A tool described by a JSON Schema alone (an MCP server's tools arrive so): its input is checked
 * with a real JSON Schema validator (`@cfworker/json-schema`, 4-7 ms to load, loaded the first
 * time such a tool's input is not plain), and what is wrong is worded as zod's problems are
 * (`"path" is required; "limit" must be a number`). The schema is untrusted (it comes from
 * another program): one too large or too deep, or with a regular expression that could take
 * exponential time, is not run, and the call is refused saying why.
 */
import safeRegex from "safe-regex2";
import { plainInput } from "./_plain_input.ts";

/** The outcome of a check: the input as taken, or what is wrong with it. */
export type JsonSchemaCheck = { ok: true; value: unknown } | { ok: false; problems: string[] };

/** How much of a schema rein walks before it calls it too large. */
const MAX_NODES = 5_000;
const MAX_DEPTH = 64;
const MAX_PATTERN = 1_000;

/** A validator made for a schema, kept for that schema object. */
interface Checker {
  validate(input: unknown): { valid: boolean; errors: OutputUnit[] };
}

/** One problem as the validator reports it. */
interface OutputUnit {
  instanceLocation: string;
  keyword: string;
  error: string;
}

const checkers = new WeakMap<Record<string, unknown>, Promise<Checker | string>>();

/**
 * Check `input` against `schema`. A plain schema's valid input is taken without loading the
 * validator; otherwise the validator decides. Never throws.
 */
export async function checkJsonSchemaInput(
  schema: Record<string, unknown>,
  input: unknown,
): Promise<JsonSchemaCheck> {
  const plain = plainInput(schema, input);
  if (plain !== undefined) return { ok: true, value: plain.value };
  let made = checkers.get(schema);
  if (made === undefined) {
    made = makeChecker(schema);
    checkers.set(schema, made);
  }
  const checker = await made;
  if (typeof checker === "string") return { ok: false, problems: [checker] };
  let result: { valid: boolean; errors: OutputUnit[] };
  try {
    result = checker.validate(input);
  } catch (error) {
    return { ok: false, problems: [`it cannot be checked against the tool's schema (${error})`] };
  }
  if (result.valid) return { ok: true, value: input };
  const problems = [...new Set(result.errors.flatMap((unit) => describe(unit, input)))];
  return {
    ok: false,
    problems: problems.length > 0 ? problems : ["it does not match the tool's schema"],
  };
}

async function makeChecker(schema: Record<string, unknown>): Promise<Checker | string> {
  const unsafe = unsafePart(schema);
  if (unsafe !== undefined) return `the tool's schema is not checked: ${unsafe}`;
  try {
    const { Validator } = await import("@cfworker/json-schema");
    const draft = typeof schema.$schema === "string" && schema.$schema.includes("draft-07")
      ? "7"
      : "2020-12";
    return new Validator(schema as never, draft, false) as unknown as Checker;
  } catch (error) {
    return `the tool's schema cannot be read (${error})`;
  }
}

/** What makes `schema` unsafe to run, or undefined. Walks it once, bounded. */
function unsafePart(schema: unknown): string | undefined {
  let nodes = 0;
  const walk = (value: unknown, depth: number): string | undefined => {
    if (++nodes > MAX_NODES) return `it has more than ${MAX_NODES} parts`;
    if (depth > MAX_DEPTH) return `it is nested more than ${MAX_DEPTH} deep`;
    if (Array.isArray(value)) {
      for (const item of value) {
        const found = walk(item, depth + 1);
        if (found) return found;
      }
      return undefined;
    }
    if (typeof value !== "object" || value === null) return undefined;
    for (const [key, member] of Object.entries(value)) {
      const patterns = key === "pattern" && typeof member === "string"
        ? [member]
        : key === "patternProperties" && typeof member === "object" && member !== null
        ? Object.keys(member)
        : [];
      for (const pattern of patterns) {
        if (pattern.length > MAX_PATTERN || !safeRegex(pattern)) {
          return `its pattern ${JSON.stringify(pattern.slice(0, 80))} could take too long to match`;
        }
      }
      const found = walk(member, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return walk(schema, 0);
}

/** A validator's problem in rein's words, or none for the summaries above the real ones. */
function describe(unit: OutputUnit, input: unknown): string[] {
  const path = unit.instanceLocation.replace(/^#\/?/, "").split("/").filter((p) => p !== "")
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
  const field = path.length === 0 ? "" : `"${path.join(".")}"`;
  const quoted = /"([^"]*)"/.exec(unit.error)?.[1];
  switch (unit.keyword) {
    case "properties":
    case "items":
    case "prefixItems":
    case "false":
    case "allOf":
    case "$ref":
      return [];
    case "required":
      return [`"${[...path, quoted ?? "?"].join(".")}" is required`];
    case "additionalProperties":
    case "unevaluatedProperties":
      return quoted === undefined ? [] : [`unknown field "${[...path, quoted].join(".")}"`];
    case "type": {
      const expected = /Expected "([^"]+)"/.exec(unit.error)?.[1] ?? "another type";
      if (field === "") return [`expected an object with the tool's fields, not ${kind(input)}`];
      return [`${field} must be ${article(expected)}`];
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum": {
      const bound = / (-?[\d.e+-]+)\.$/.exec(unit.error)?.[1];
      const words = {
        minimum: "at least",
        maximum: "at most",
        exclusiveMinimum: "greater than",
        exclusiveMaximum: "less than",
      }[unit.keyword];
      if (bound !== undefined) return [`${field || "the input"} must be ${words} ${bound}`];
      break;
    }
    case "minLength":
    case "maxLength": {
      const bound = Number(/[<>] (\d+)\)/.exec(unit.error)?.[1]);
      if (Number.isNaN(bound)) break;
      if (unit.keyword === "minLength") {
        return [
          bound <= 1
            ? `${field || "the input"} must not be empty`
            : `${field || "the input"} must be at least ${bound} characters long`,
        ];
      }
      return [`${field || "the input"} must be at most ${bound} characters long`];
    }
    case "enum": {
      const values = /of (\[.*\])\.$/.exec(unit.error)?.[1];
      if (values !== undefined) {
        return [
          `${field || "the input"} must be one of ${values.slice(1, -1).replaceAll(",", ", ")}`,
        ];
      }
      break;
    }
    case "uniqueItems":
      return [`${field || "the input"} must not repeat an item`];
    default:
      break;
  }
  return [`${field === "" ? "the input" : field}: ${unit.error.replace(/\.$/, "")}`];
}

function article(type: string): string {
  if (type === "integer") return "an integer";
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return article(typeof value);
}
