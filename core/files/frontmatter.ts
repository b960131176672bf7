import { load } from "js-yaml";

/** A file's frontmatter read: its fields and the text after it, or why it cannot be read. */
export type Frontmatter =
  | { ok: true; fields: Record<string, unknown>; body: string; found: boolean }
  | { ok: false; why: string };

const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?^---[ \t]*(?:\r?\n|$)/m;

/**
 * The YAML frontmatter (between `---` lines at the top) of a SKILL.md or a command file, as
 * Claude Code reads it: YAML, or, where the YAML does not parse, each `key: value` line as text
 * (so `argument-hint: [file] [focus]`, which Claude Code users write, is the text it looks like)
 * with `- item` lines under an empty key as a list. `found` is false, the fields empty and the
 * body the whole text, when there is no frontmatter. Pure; never throws.
 */
export function readFrontmatter(text: string): Frontmatter {
  const match = FRONTMATTER.exec(text);
  if (!match || match.index !== 0) {
    return { ok: true, fields: {}, body: text.replace(/^\uFEFF/, ""), found: false };
  }
  const yaml = match[1] ?? "";
  const body = text.slice(match[0].length);
  let data: unknown = {};
  try {
    // js-yaml refuses a document with nothing in it; that is no fields.
    if (yaml.replace(/^\s*#.*$/gm, "").trim() !== "") data = load(yaml);
  } catch (error) {
    const lenient = plainFields(yaml);
    if (lenient !== undefined) return { ok: true, fields: lenient, body, found: true };
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { ok: false, why: `its frontmatter is not valid YAML: ${reason}` };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== "object" || Array.isArray(data)) {
    return { ok: false, why: "its frontmatter is not a YAML mapping of keys to values" };
  }
  return { ok: true, fields: data as Record<string, unknown>, body, found: true };
}

/** `key: value` lines as texts (`- item` lines under an empty key: a list), or undefined. */
function plainFields(yaml: string): Record<string, unknown> | undefined {
  const fields: Record<string, unknown> = {};
  let list: string[] | undefined;
  for (const line of yaml.split(/\r?\n/)) {
    if (line.trim() === "" || /^\s*#/.test(line)) continue;
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && list) {
      list.push(unquote(item[1] ?? ""));
      continue;
    }
    const pair = /^([A-Za-z0-9_-]+):(?:\s+(.*))?$/.exec(line);
    if (!pair) return undefined;
    const value = (pair[2] ?? "").trim();
    if (value === "") fields[pair[1] as string] = list = [];
    else {
      fields[pair[1] as string] = unquote(value);
      list = undefined;
    }
  }
  return fields;
}

function unquote(value: string): string {
  const quoted = /^"(.*)"$/.exec(value) ?? /^'(.*)'$/.exec(value);
  return quoted ? quoted[1] ?? "" : value;
}

/**
 * `allowed-tools` as Claude Code reads it in a skill or a command: a list, or a text split at
 * commas and spaces (not inside a rule's parentheses); `[]` when absent, undefined when neither.
 * Pure.
 */
export function frontmatterToolList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return value.split(/[,\s]+(?![^(]*\))/).filter(Boolean);
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
  return undefined;
}

/**
 * `argument-hint` as its author meant it: `argument-hint: [file]` is a YAML list, and Claude Code
 * users write it so and mean the text. Undefined when absent, null when it cannot be a hint. Pure.
 */
export function frontmatterHint(value: unknown): string | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((item) => typeof item !== "object")) {
    return value.map((item) => `[${item}]`).join(" ");
  }
  return null;
}
