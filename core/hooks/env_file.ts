import { isSecretEnvName } from "../tools/command_env.ts";

/** The largest `CLAUDE_ENV_FILE` rein reads; a larger one is ignored whole. */
export const ENV_FILE_MAX_BYTES = 64 * 1024;

/** Variables bash keeps read-only: exporting one would fail in every command. */
const READ_ONLY_IN_BASH = new Set([
  "SHELLOPTS",
  "BASHOPTS",
  "BASH_VERSINFO",
  "EUID",
  "UID",
  "PPID",
]);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What a hook's env file sets, and the lines left out. */
export interface EnvFile {
  /** Each variable's value, expanded; a later line's value wins. */
  env: Record<string, string>;
  /** Each line left out, as `line N: why`. */
  ignored: string[];
}

/**
 * The variables a SessionStart hook wrote to its `CLAUDE_ENV_FILE`, read without a shell: one
 * `export NAME=value` or `NAME=value` per line (several on a line, `#` comments and blank lines
 * allowed), the value a shell word of plain text, `'…'` and `"…"` with `\` escapes, `$NAME` and
 * `${NAME}` expanded from the variables before it in the file, then `base` (the environment the
 * hook ran with, which holds no secret), and `~` at its start or after a `:` the home folder.
 * Anything else a shell would run (`$(…)`, backquotes, `${NAME:-x}`, `;`, `|`, redirections) leaves
 * its line out. So do a secret-looking name (`isSecretEnvName`: commands never see those, and
 * the log never holds them), a name `REIN_SECRET_ENV` lists, and a variable bash keeps read-only.
 * Pure.
 */
export function parseEnvFile(text: string, base: Readonly<Record<string, string>>): EnvFile {
  const env: Record<string, string> = {};
  const ignored: string[] = [];
  const listed = new Set(
    (base.REIN_SECRET_ENV ?? "").split(",").map((name) => name.trim()).filter(Boolean),
  );
  const lookup = (name: string) => env[name] ?? base[name] ?? "";
  for (const [index, line] of text.split("\n").entries()) {
    const parsed = parseLine(line.replace(/\r$/, ""), lookup);
    if (typeof parsed === "string") {
      ignored.push(`line ${index + 1}: ${parsed}`);
      continue;
    }
    const refused = parsed.find(([name]) =>
      isSecretEnvName(name) || listed.has(name) || READ_ONLY_IN_BASH.has(name)
    );
    if (refused !== undefined) {
      const [name] = refused;
      ignored.push(
        `line ${index + 1}: ${name} is ${
          READ_ONLY_IN_BASH.has(name) ? "read-only in bash" : "a secret's name, kept from commands"
        }`,
      );
      continue;
    }
    for (const [name, value] of parsed) env[name] = value;
  }
  return { env, ignored };
}

/** A line's assignments in order, or why it was left out. */
function parseLine(
  line: string,
  lookup: (name: string) => string,
): [string, string][] | string {
  const assignments: [string, string][] = [];
  let rest = line.trimStart();
  if (rest === "" || rest.startsWith("#")) return assignments;
  const exported = /^export(\s+|$)/.exec(rest);
  if (exported) rest = rest.slice(exported[0].length);
  while (rest !== "" && !rest.startsWith("#")) {
    const equals = rest.indexOf("=");
    const name = equals < 0 ? rest.split(/\s/)[0] ?? "" : rest.slice(0, equals);
    // `export NAME` with no value exports what is already set: nothing to do.
    if (exported && equals < 0 && NAME.test(name)) return assignments;
    if (equals < 0 || !NAME.test(name)) return `not NAME=value: ${quoteLine(line)}`;
    const word = readWord(rest.slice(equals + 1), lookup);
    if (typeof word === "string") return `${word}: ${quoteLine(line)}`;
    assignments.push([name, word.value]);
    rest = word.rest.trimStart();
    if (rest !== "" && !rest.startsWith("#") && rest.length === word.rest.length) {
      return `not NAME=value: ${quoteLine(line)}`;
    }
  }
  return assignments;
}

/** One shell word from the start of `text`: its value and what follows, or why it is refused. */
function readWord(
  text: string,
  lookup: (name: string) => string,
): { value: string; rest: string } | string {
  let value = "";
  let i = 0;
  const expand = (at: number): { text: string; end: number } | string => {
    const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(text.slice(at));
    const plain = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(at));
    const found = braced ?? plain;
    if (found) return { text: lookup(found[1] as string), end: at + found[0].length };
    const next = text[at + 1];
    if (next === undefined || next === '"' || /\s/.test(next)) return { text: "$", end: at + 1 };
    return `"$${next}" would be run or expanded by a shell`;
  };
  while (i < text.length) {
    const char = text[i] as string;
    if (/\s/.test(char)) break;
    if (char === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return "an unterminated quote";
      value += text.slice(i + 1, end);
      i = end + 1;
    } else if (char === '"') {
      i += 1;
      let closed = false;
      while (i < text.length) {
        const inner = text[i] as string;
        if (inner === '"') {
          closed = true;
          i += 1;
          break;
        }
        if (inner === "\\" && i + 1 < text.length && '$`"\\'.includes(text[i + 1] as string)) {
          value += text[i + 1];
          i += 2;
        } else if (inner === "$") {
          const expanded = expand(i);
          if (typeof expanded === "string") return expanded;
          value += expanded.text;
          i = expanded.end;
        } else if (inner === "`") {
          return "a backquote would be run by a shell";
        } else {
          value += inner;
          i += 1;
        }
      }
      if (!closed) return "an unterminated quote";
    } else if (char === "\\") {
      if (i + 1 >= text.length) return "a backslash at the end of the line";
      value += text[i + 1];
      i += 2;
    } else if (char === "$") {
      const expanded = expand(i);
      if (typeof expanded === "string") return expanded;
      value += expanded.text;
      i = expanded.end;
    } else if (
      char === "~" && (i === 0 || text[i - 1] === ":") && /^~(\/|:|\s|$)/.test(text.slice(i))
    ) {
      value += lookup("HOME");
      i += 1;
    } else if (";&|<>()`".includes(char)) {
      return `"${char}" would be run by a shell`;
    } else {
      value += char;
      i += 1;
    }
  }
  return { value, rest: text.slice(i) };
}

function quoteLine(line: string): string {
  const trimmed = line.trim();
  return JSON.stringify(trimmed.length > 60 ? `${trimmed.slice(0, 59)}…` : trimmed);
}
