/** Shared by the settings parsers: collecting diagnostics and wording them alike. */
import type { SettingsDiagnostic } from "./settings.ts";

export { isRecord } from "./is_record.ts";

const MAX_QUOTED_CHARS = 80;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Collects the diagnostics of one settings file, each message naming the file. */
export class Reporter {
  readonly diagnostics: SettingsDiagnostic[] = [];
  readonly #path: string;

  constructor(path: string) {
    this.#path = path;
  }

  /** An entry that does not have the shape it must have and is dropped. */
  invalid(detail: string): void {
    this.error(`Invalid settings in "${this.#path}": ${detail}`);
  }

  /** `expected` is a phrase such as `a string`; the found value is quoted. */
  mismatch(where: string, expected: string, found: unknown): void {
    this.invalid(
      found === undefined
        ? `${where} is missing (it must be ${expected})`
        : `${where} must be ${expected}, found ${quote(found)}`,
    );
  }

  error(message: string): void {
    this.diagnostics.push({ path: this.#path, message, severity: "error" });
  }

  /** `what` heads the message, e.g. `Unknown hook event`. */
  warning(what: string, detail: string): void {
    this.diagnostics.push({
      path: this.#path,
      message: `${what} in "${this.#path}": ${detail}`,
      severity: "warning",
    });
  }
}

/** A JSON value as it would appear in the file, cut to a readable length. */
export function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= MAX_QUOTED_CHARS ? text : `${text.slice(0, MAX_QUOTED_CHARS - 1)}…`;
}

/** `base.key`, or `base["odd key"]` when the key is not an identifier. */
export function keyPath(base: string, key: string): string {
  return IDENTIFIER.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/** A list of allowed values for a message: `"a", "b", "c"`. */
export function quoteAll(values: readonly string[]): string {
  return values.map((value) => JSON.stringify(value)).join(", ");
}

/**
 * The strings of a JSON array at `where`, each other element reported and dropped; `undefined`
 * (reported) when the value is not an array at all.
 */
export function stringList(value: unknown, where: string, report: Reporter): string[] | undefined {
  if (!Array.isArray(value)) {
    report.mismatch(where, "an array of strings", value);
    return undefined;
  }
  const items: string[] = [];
  for (const [index, item] of value.entries()) {
    if (typeof item === "string") items.push(item);
    else report.mismatch(`${where}[${index}]`, "a string", item);
  }
  return items;
}
