import { lexCommand, type ShellToken, unwrapTokens } from "./_shell_lex.ts";

/** Commands that only read, whatever their arguments. */
const READ_ONLY_PROGRAMS: ReadonlySet<string> = new Set([
  "ls",
  "cat",
  "pwd",
  "echo",
  "printf",
  "head",
  "tail",
  "wc",
  "which",
  "type",
  "whoami",
  "id",
  "uname",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "stat",
  "du",
  "df",
  "grep",
  "egrep",
  "fgrep",
  "true",
  "false",
]); // deno-fmt-ignore

/** Git subcommands that only read, unless given an option in `GIT_WRITING_OPTIONS`. */
const READ_ONLY_GIT: ReadonlySet<string> = new Set([
  "status", "diff", "log", "show", "rev-parse", "ls-files", "blame",
]); // deno-fmt-ignore

const GIT_WRITING_OPTION = /^(--output|--ext-diff|--exec|-o$)/;

/**
 * Whether one simple command is in rein's small built-in read-only set, which never asks:
 * `ls`, `cat`, `pwd`, `echo`, `head`, `tail`, `wc`, `which`, `grep`, … and `git status`,
 * `git diff`, `git log`, `git show`, `git branch` (listing only), … Wrappers are looked through.
 * False for a compound or complex command, one with variable assignments in front, and one that
 * redirects output anywhere but `/dev/null` or another descriptor. Pure.
 */
export function isReadOnlyCommand(part: string): boolean {
  const lexed = lexCommand(part);
  const [tokens, ...rest] = lexed.parts;
  if (lexed.complex || tokens === undefined || rest.length > 0) return false;
  const unwrapped = unwrapTokens(tokens);
  if (unwrapped.assignments.length > 0 || !redirectsOnlyHarmlessly(unwrapped.tokens)) return false;
  const words = unwrapped.tokens.flatMap((token) => token.kind === "word" ? [token.value] : []);
  const [program, subcommand, ...args] = words;
  if (program === undefined) return false;
  if (READ_ONLY_PROGRAMS.has(program)) return true;
  if (program !== "git" || subcommand === undefined) return false;
  if (args.some((arg) => GIT_WRITING_OPTION.test(arg))) return false;
  if (READ_ONLY_GIT.has(subcommand)) return true;
  if (subcommand === "branch") {
    return args.every((arg) => ["--list", "-a", "-r", "-v", "-vv", "--show-current"].includes(arg));
  }
  return subcommand === "remote" && args.every((arg) => arg === "-v");
}

function redirectsOnlyHarmlessly(tokens: readonly ShellToken[]): boolean {
  return tokens.every((token, index) => {
    if (token.kind === "word") return true;
    if (/^\d*[<>]&(\d+|-)$/.test(token.raw)) return true;
    if (/^\d*<$/.test(token.raw)) return true;
    const target = tokens[index + 1];
    return target?.kind === "word" && target.value === "/dev/null";
  });
}
