/** A word (`raw` as written, `value` with quotes and escapes removed) or a redirection. */
export type ShellToken =
  | { kind: "word"; raw: string; value: string }
  | { kind: "redirect"; raw: string };

/** A command line cut into simple commands. */
export interface LexedCommand {
  parts: ShellToken[][];
  /**
   * Whether the line uses substitution (`$(…)`, backticks, `<(…)`), subshells, here-documents,
   * control keywords or unterminated quotes: rein cannot tell what such a line runs, so no
   * allow rule approves it. Its pieces are still cut into parts so deny rules see them.
   */
  complex: boolean;
}

const KEYWORDS: ReadonlySet<string> = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "function",
  "select",
  "{",
  "}",
  "!",
  "[[",
  "]]",
]); // deno-fmt-ignore

/**
 * Cuts a bash command line into simple commands at `&&`, `||`, `;`, `|`, `|&`, `&` and
 * newlines, honouring single and double quotes, backslash escapes, line continuations and
 * comments. Substitutions and subshells also cut (their inner commands become parts) and mark
 * the line complex. An approximation of bash's grammar for permission checks; pure.
 */
export function lexCommand(command: string): LexedCommand {
  const parts: ShellToken[][] = [];
  let tokens: ShellToken[] = [];
  let raw = "";
  let value = "";
  let inWord = false;
  let complex = false;

  const endWord = () => {
    if (inWord) tokens.push({ kind: "word", raw, value });
    raw = "";
    value = "";
    inWord = false;
  };
  const endPart = () => {
    endWord();
    while (tokens[0]?.kind === "word" && KEYWORDS.has(tokens[0].raw)) {
      complex = true;
      tokens.shift();
    }
    if (tokens.length > 0) parts.push(tokens);
    tokens = [];
  };

  let i = 0;
  while (i < command.length) {
    const char = command[i] as string;
    const next = command[i + 1];
    if (char === "\\") {
      if (next === "\n") {
        i += 2;
        continue;
      }
      raw += char + (next ?? "");
      value += next ?? char;
      inWord = true;
      i += next === undefined ? 1 : 2;
    } else if (char === "$" && next === "'") {
      // ANSI-C quoting: backslash escapes hold inside, `\'` among them. What it decodes to is
      // not worked out here, so no allow rule approves the line; the cut is bash's.
      complex = true;
      let j = i + 2;
      let inner = "";
      while (j < command.length && command[j] !== "'") {
        if (command[j] === "\\" && j + 1 < command.length) {
          inner += command[j + 1];
          j += 2;
        } else {
          inner += command[j];
          j++;
        }
      }
      const end = Math.min(j + 1, command.length);
      raw += command.slice(i, end);
      value += inner;
      inWord = true;
      i = end;
    } else if (char === "'") {
      const close = command.indexOf("'", i + 1);
      if (close === -1) complex = true;
      const end = close === -1 ? command.length : close + 1;
      raw += command.slice(i, end);
      value += command.slice(i + 1, close === -1 ? command.length : close);
      inWord = true;
      i = end;
    } else if (char === '"') {
      let j = i + 1;
      let inner = "";
      while (j < command.length && command[j] !== '"') {
        const c = command[j] as string;
        if (c === "`" || (c === "$" && command[j + 1] === "(")) complex = true;
        if (c === "\\" && j + 1 < command.length) {
          inner += command[j + 1];
          j += 2;
        } else {
          inner += c;
          j++;
        }
      }
      if (j >= command.length) complex = true;
      const end = Math.min(j + 1, command.length);
      raw += command.slice(i, end);
      value += inner;
      inWord = true;
      i = end;
    } else if (char === "`" || char === "(" || char === ")") {
      complex = true;
      endPart();
      i++;
    } else if ((char === "$" || char === "<" || char === ">") && next === "(") {
      complex = true;
      endPart();
      i += 2;
    } else if (char === "#" && !inWord) {
      while (i < command.length && command[i] !== "\n") i++;
    } else if (char === " " || char === "\t" || char === "\r") {
      endWord();
      i++;
    } else if (char === "\n" || char === ";") {
      endPart();
      i++;
    } else if (char === "|") {
      endPart();
      i += next === "|" || next === "&" ? 2 : 1;
    } else if (char === "&" && next !== ">") {
      endPart();
      i += next === "&" ? 2 : 1;
    } else if (char === "<" || char === ">" || char === "&") {
      let op = "";
      if (inWord && /^\d+$/.test(raw)) {
        op = raw;
        raw = "";
        value = "";
        inWord = false;
      } else {
        endWord();
      }
      if (char === "&") op += command[i++];
      while ((command[i] === "<" || command[i] === ">" || command[i] === "|") && op.length < 6) {
        op += command[i++];
      }
      if (command[i] === "&") {
        op += command[i++];
        while (i < command.length && /[\d-]/.test(command[i] as string)) op += command[i++];
      }
      if (op.includes("<<")) complex = true;
      tokens.push({ kind: "redirect", raw: op });
    } else {
      raw += char;
      value += char;
      inWord = true;
      i++;
    }
  }
  endPart();
  return { parts, complex };
}

/** A part's text: its tokens as written, joined by single spaces. */
export function tokensText(tokens: readonly ShellToken[]): string {
  return tokens.map((token) => token.raw).join(" ");
}

/** A simple command with its wrappers (`timeout`, `nice`, `env`, `VAR=x`, …) taken off. */
export interface Unwrapped {
  tokens: ShellToken[];
  /** Names of the variables assigned in front of the command (by `VAR=x` or `env VAR=x`). */
  assignments: string[];
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;
const DURATION = /^\d+(\.\d+)?[smhd]?$/;

/**
 * Looks through `timeout [opts] N`, `nice [-n N]`, `nohup`, `time [-p]`, `env [-i] VAR=x …` and
 * leading `VAR=x` assignments, repeatedly. A wrapper with options rein does not know is left in
 * place (so the command matches fewer allow rules, never more); so is a wrapper with no command.
 */
export function unwrapTokens(tokens: readonly ShellToken[]): Unwrapped {
  const assignments: string[] = [];
  const word = (index: number) => {
    const token = tokens[index];
    return token?.kind === "word" ? token : undefined;
  };
  let k = 0;
  for (;;) {
    const first = word(k);
    if (first === undefined) break;
    const assigned = ASSIGNMENT.exec(first.raw)?.[1];
    if (assigned !== undefined) {
      assignments.push(assigned);
      k++;
      continue;
    }
    const after = wrapperEnd(first.value, k, word, assignments);
    if (after === undefined) break;
    k = after;
  }
  if (word(k) === undefined) return { tokens: [...tokens], assignments: [] };
  return { tokens: tokens.slice(k), assignments };
}

/** The index after the wrapper starting at `k`, or undefined when `name` is no known wrapper. */
function wrapperEnd(
  name: string,
  k: number,
  word: (index: number) => { value: string; raw: string } | undefined,
  assignments: string[],
): number | undefined {
  let j = k + 1;
  switch (name) {
    case "nohup":
      return j;
    case "time":
      return word(j)?.value === "-p" ? j + 1 : j;
    case "nice": {
      const option = word(j)?.value ?? "";
      if (option === "-n" || option === "--adjustment") return j + 2;
      if (/^-n?-?\d+$/.test(option) || option.startsWith("--adjustment=")) return j + 1;
      return option.startsWith("-") ? undefined : j;
    }
    case "timeout": {
      for (
        let option = word(j)?.value ?? "";
        option.startsWith("-");
        option = word(j)?.value ?? ""
      ) {
        if (
          option === "-s" || option === "-k" || option === "--signal" || option === "--kill-after"
        ) {
          j += 2;
        } else if (
          /^(--preserve-status|--foreground|-v|--verbose|--signal=.*|--kill-after=.*)$/.test(option)
        ) {
          j += 1;
        } else {
          return undefined;
        }
      }
      return DURATION.test(word(j)?.value ?? "") ? j + 1 : undefined;
    }
    case "env": {
      const names: string[] = [];
      for (let current = word(j); current !== undefined; current = word(j)) {
        const assigned = ASSIGNMENT.exec(current.raw)?.[1];
        if (assigned !== undefined) names.push(assigned);
        else if (!["-i", "-", "--ignore-environment"].includes(current.value)) break;
        j++;
      }
      if (word(j)?.value.startsWith("-")) return undefined;
      assignments.push(...names);
      return j;
    }
    default:
      return undefined;
  }
}
