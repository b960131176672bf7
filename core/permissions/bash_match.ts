import { lexCommand, tokensText, unwrapTokens } from "./_shell_lex.ts";

/**
 * Whether a `Bash(pattern)` rule matches one simple command. Pure.
 *
 * `*` matches any text, spaces included, and `\*` a literal star. A pattern ending in ` *`
 * also matches without the tail, and the space is a word boundary: `ls *` matches `ls` and
 * `ls -la` but not `lsof`. Legacy `prefix:*` means `prefix *`. A pattern without `*` matches the
 * exact command. Both sides are compared after trimming.
 */
export function bashRuleMatches(pattern: string, command: string): boolean {
  return compiled(pattern).test(command.trim());
}

/**
 * Whether `pattern` is a legacy prefix with a space before its `:*` (`npm test :*`). Claude Code
 * takes the space as part of the prefix, so such an allow rule matches no command there; rein
 * allows nothing by it either, and still denies and asks by it as by `npm test *`. Pure.
 */
export function spacedLegacyPrefix(pattern: string): boolean {
  return /\s:\*$/.test(pattern.trim());
}

/** Compiled patterns: a rule is checked on every call, compiled once. */
const patterns = new Map<string, RegExp>();

function compiled(pattern: string): RegExp {
  let regex = patterns.get(pattern);
  if (!regex) {
    regex = compile(pattern);
    if (patterns.size > 10_000) patterns.clear();
    patterns.set(pattern, regex);
  }
  return regex;
}

function compile(pattern: string): RegExp {
  let source = pattern.trim();
  if (source.endsWith(":*") && !source.endsWith("\\:*")) source = `${source.slice(0, -2)} *`;
  let optionalTail = false;
  if (source.endsWith(" *") && !source.endsWith("\\ *")) {
    source = source.slice(0, -2).trimEnd();
    optionalTail = true;
  }
  let regex = "";
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string;
    if (char === "\\" && source[i + 1] === "*") {
      regex += "\\*";
      i++;
    } else if (char === "*") {
      regex += "[\\s\\S]*";
    } else {
      regex += char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
  }
  if (optionalTail) regex += "(?: [\\s\\S]*)?";
  return new RegExp(`^${regex}$`);
}

/** A command line cut into simple commands, and whether it is too complex to approve. */
export interface ParsedCommand {
  /** Each simple command's text, whitespace between words collapsed to one space. */
  parts: string[];
  /**
   * True when the line uses `$(…)`, backticks, process substitution, subshells, here-documents
   * or control keywords: callers must not let an allow rule (other than a bare `Bash`) approve
   * it. Deny and ask rules still apply to every part.
   */
  complex: boolean;
}

/**
 * Cuts a command line at `&&`, `||`, `;`, `|`, `&` and newlines, honouring quotes and backslash
 * escapes, and reports whether it is complex (see {@linkcode ParsedCommand}). Pure.
 */
export function parseCommand(command: string): ParsedCommand {
  const lexed = lexCommand(command);
  return { parts: lexed.parts.map(tokensText), complex: lexed.complex };
}

/**
 * The simple commands of a command line (see {@linkcode parseCommand}, which also says whether
 * the line is complex; a complex line's substitutions come back as parts of their own). Pure.
 */
export function splitCommand(command: string): string[] {
  return parseCommand(command).parts;
}

/**
 * A simple command without the wrappers rein looks through: `timeout [opts] N`,
 * `nice [-n N]`, `nohup`, `time [-p]`, `env [-i] VAR=x …` and leading `VAR=x` assignments
 * (`timeout 10 npm test` → `npm test`). A wrapper with unknown options, or with no command
 * after it, stays. Pure.
 */
export function stripWrappers(part: string): string {
  const [tokens, ...rest] = lexCommand(part).parts;
  if (tokens === undefined || rest.length > 0) return part.trim();
  return tokensText(unwrapTokens(tokens).tokens);
}
