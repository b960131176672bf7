/**
 * A tool described by a JSON Schema alone (an MCP server's tools arrive so): its input is checked
 * with a real JSON Schema validator (`@cfworker/json-schema`, 4-7 ms to load, loaded the first
 * time such a tool's input is not plain), and what is wrong is worded as zod's problems are
 * (`"path" is required; "limit" must be a number`). The schema is untrusted (it comes from
 * another program): one too large or too deep as its `$ref`s unfold (definitions that each use
 * the next twice would take the validator 2^n steps), with a `$ref` rein cannot follow for sure,
 * or with a regular expression that could take exponential time, is not run, and the call is
 * refused saying why; so is an input array too long to check for repeats (`uniqueItems`). A
 * `$ref` into itself that never reaches the input ends in the validator's stack overflow, caught.
 */
import { plainInput } from "./_plain_input.ts";

/** The outcome of a check: the input as taken, or what is wrong with it. */
export type JsonSchemaCheck = { ok: true; value: unknown } | { ok: false; problems: string[] };

/**
 * How much of a schema rein walks before it calls it too large: its parts counted each time a
 * `$ref` leads to them (a definition shared by two `allOf` branches, each of them shared again,
 * costs the validator as much as the tree it unfolds to), and how deep.
 */
const MAX_NODES = 20_000;
const MAX_DEPTH = 64;
const MAX_PATTERN = 1_000;
/** The most items of an array checked for repeats (`uniqueItems` compares every pair). */
const MAX_UNIQUE_ITEMS = 2_000;

/** A validator made for a schema, kept for that schema object. */
interface Checker {
  validate(input: unknown): { valid: boolean; errors: OutputUnit[] };
  /** Whether the schema asks for an array without repeats anywhere. */
  uniqueItems?: boolean;
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
  if (checker.uniqueItems && longestArray(input) > MAX_UNIQUE_ITEMS) {
    return {
      ok: false,
      problems: [
        `an array of the input has more than ${MAX_UNIQUE_ITEMS} items, too many to check that ` +
        "none repeats",
      ],
    };
  }
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
  // Loaded with the first JSON-Schema-only tool's first call, not at start (with the regex
  // parser it brings, Deno loads it through its CommonJS layer).
  const { default: safeRegex } = await import("safe-regex2");
  const walked = walkSchema(schema, safeRegex);
  if (typeof walked === "string") return `the tool's schema is not checked: ${walked}`;
  try {
    const { Validator } = await import("@cfworker/json-schema");
    const draft = typeof schema.$schema === "string" && schema.$schema.includes("draft-07")
      ? "7"
      : "2020-12";
    const validator = new Validator(schema as never, draft, false);
    return {
      validate: (input) => validator.validate(input) as { valid: boolean; errors: OutputUnit[] },
      uniqueItems: walked.uniqueItems,
    };
  } catch (error) {
    return `the tool's schema cannot be read (${error})`;
  }
}

/** The length of the longest array in `value` (JSON, finite). */
function longestArray(value: unknown): number {
  let longest = 0;
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== "object" || item === null) continue;
    if (Array.isArray(item)) longest = Math.max(longest, item.length);
    for (const member of Object.values(item)) stack.push(member);
  }
  return longest;
}

/**
 * What makes `schema` unsafe to run, or what the walk found (whether it asks for unique items).
 * Walks it as the validator would, a `$ref` followed to its target each time (a reference back
 * into itself, recursion over the input, once), bounded in parts and depth; a `$ref` that does
 * not lead into the schema (another document) is not followed by rein, so the schema is refused.
 */
function walkSchema(
  schema: Record<string, unknown>,
  safeRegex: (pattern: string) => boolean,
): string | { uniqueItems: boolean } {
  const anchors = schemaAnchors(schema);
  if (typeof anchors === "string") return anchors;
  let nodes = 0;
  let uniqueItems = false;
  const following = new Set<unknown>();
  const walk = (value: unknown, depth: number): string | undefined => {
    if (++nodes > MAX_NODES) return `it unfolds to more than ${MAX_NODES} parts`;
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
      if (key === "uniqueItems" && member === true) uniqueItems = true;
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
      const found = REFS.has(key) && typeof member === "string"
        ? follow(key === "$recursiveRef" ? "#" : member, depth)
        : walk(member, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  const follow = (ref: string, depth: number): string | undefined => {
    const target = refTarget(schema, anchors, ref);
    if (target === undefined) {
      return `its $ref ${JSON.stringify(ref.slice(0, 80))} does not lead into the schema`;
    }
    if (following.has(target)) return undefined;
    following.add(target);
    const found = walk(target, depth + 1);
    following.delete(target);
    return found;
  };
  const found = walk(schema, 0);
  return found ?? { uniqueItems };
}

/** The keywords whose string value leads to another part of the schema. */
const REFS: ReadonlySet<string> = new Set(["$ref", "$dynamicRef", "$recursiveRef"]);

/**
 * The parts of `schema` named by `$anchor` and `$dynamicAnchor`, by the name a `$ref` gives them
 * (`#name`), and the schema itself by its `$id`; or what keeps rein from knowing for sure where
 * each `$ref` leads as the validator will: a part with an `$id` of its own (a `$ref` inside it
 * would start from there), or an anchor named twice.
 */
function schemaAnchors(schema: Record<string, unknown>): Map<string, unknown> | string {
  const anchors = new Map<string, unknown>();
  if (typeof schema.$id === "string") anchors.set(schema.$id, schema);
  const stack: [unknown, number][] = [[schema, 0]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (++nodes > MAX_NODES) return `it has more than ${MAX_NODES} parts`;
    if (depth > MAX_DEPTH) return `it is nested more than ${MAX_DEPTH} deep`;
    if (typeof value !== "object" || value === null) continue;
    if (!Array.isArray(value)) {
      const node = value as Record<string, unknown>;
      // (Also a value that holds an `$id`, in a `const` or `default`: rein does not guess.)
      if (node !== schema && typeof node.$id === "string") {
        return `its part ${JSON.stringify(node.$id.slice(0, 80))} has an $id of its own`;
      }
      for (const key of ["$anchor", "$dynamicAnchor"]) {
        if (typeof node[key] !== "string") continue;
        const name = `#${node[key]}`;
        if (anchors.has(name) && anchors.get(name) !== node) {
          return `its anchor ${JSON.stringify(name.slice(0, 80))} names two parts`;
        }
        anchors.set(name, node);
      }
    }
    for (const member of Object.values(value)) stack.push([member, depth + 1]);
  }
  return anchors;
}

/** The part of `schema` a `$ref` names: `#`, a JSON pointer `#/…`, an anchor or the schema's `$id`. */
function refTarget(
  schema: Record<string, unknown>,
  anchors: Map<string, unknown>,
  ref: string,
): unknown {
  const hash = ref.indexOf("#");
  const base = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? "" : ref.slice(hash);
  const root = base === "" ? schema : anchors.get(base);
  if (root === undefined) return undefined;
  if (fragment === "" || fragment === "#") return root;
  if (!fragment.startsWith("#/")) return base === "" ? anchors.get(fragment) : undefined;
  let target: unknown = root;
  for (const raw of fragment.slice(2).split("/")) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (typeof target !== "object" || target === null || !Object.hasOwn(target, part)) {
      return undefined;
    }
    target = (target as Record<string, unknown>)[part];
  }
  return target;
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
