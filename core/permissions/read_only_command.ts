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
  "diff",
  "cmp",
  "comm",
  "cut",
  "tr",
  "nl",
  "tac",
  "rev",
  "paste",
  "fold",
  "column",
  "od",
  "hexdump",
  "strings",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "jq",
  "true",
  "false",
]); // deno-fmt-ignore

/** The read-only set of sessions recorded before Claude Code's (a subset of the one above). */
const EARLIER_PROGRAMS: ReadonlySet<string> = new Set([
  "ls", "cat", "pwd", "echo", "printf", "head", "tail", "wc", "which", "type", "whoami", "id",
  "uname", "basename", "dirname", "realpath", "readlink", "stat", "du", "df", "grep", "egrep",
  "fgrep", "true", "false",
]); // deno-fmt-ignore

/** The git subcommands of sessions recorded before Claude Code's set. */
const EARLIER_GIT: ReadonlySet<string> = new Set([
  "status", "diff", "log", "show", "rev-parse", "ls-files", "blame",
]); // deno-fmt-ignore

/**
 * Commands that only read unless given one of their writing (or program-running) options, each
 * with the test that says an argument list is safe: `find` without `-exec`, `-delete` or
 * `-fprint`; `sort` without `-o`; `rg` without `--pre`; ….
 */
const READ_ONLY_UNLESS: ReadonlyMap<string, (args: readonly string[]) => boolean> = new Map([
  ["find", (args) => !args.some((arg) => FIND_UNSAFE.has(arg))],
  // `-o FILE` writes; a cluster such as `-uo` holds it too; --compress-program runs a program.
  [
    "sort",
    (args) =>
      !args.some((arg) =>
        /^-[^-]*o/.test(arg) || /^--(output|compress-program)(=|$)/.test(arg)
      ),
  ],
  // `--pre` and `--hostname-bin` run programs.
  ["rg", (args) => !args.some((arg) => /^--(pre|hostname-bin)(=|$)/.test(arg))],
  // A second operand is the file uniq writes.
  ["uniq", (args) => args.filter((arg) => !arg.startsWith("-")).length <= 1],
  // `-o FILE` writes the listing.
  ["tree", (args) => !args.some((arg) => /^-[^-]*o/.test(arg) || /^--output/.test(arg))],
  // `-C` compiles a magic file.
  ["file", (args) => !args.some((arg) => /^-[^-]*C/.test(arg) || arg === "--compile")],
  // Only printing: a format or UTC, never setting the clock.
  ["date", (args) => args.every((arg) => /^(\+.*|-u|--utc|-R|--rfc-email|-I\w*)$/.test(arg))],
]);

const FIND_UNSAFE: ReadonlySet<string> = new Set([
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-delete",
  "-fprint",
  "-fprint0",
  "-fprintf",
  "-fls",
]); // deno-fmt-ignore

/** Git subcommands that only read, unless given an option in `GIT_WRITING_OPTION`. */
const READ_ONLY_GIT: ReadonlySet<string> = new Set([
  "status", "diff", "log", "show", "rev-parse", "ls-files", "blame", "describe", "ls-tree",
  "cat-file", "rev-list", "shortlog", "show-ref", "merge-base",
]); // deno-fmt-ignore

/** Options that make a reading git subcommand write a file, run a program or open a pager. */
const GIT_WRITING_OPTION = /^(--output|--ext-diff|--exec|-o$|-O|--open-files-in-pager)/;

/** The writing options of sessions recorded before Claude Code's set. */
const EARLIER_GIT_WRITING_OPTION = /^(--output|--ext-diff|--exec|-o$)/;

/** `git tag` options that list (with patterns after `-l`), never create or delete. */
const GIT_TAG_LISTING =
  /^(-l|--list|-n\d*|--sort=.*|--contains.*|--merged.*|--no-merged.*|--points-at.*|--column.*|--format=.*)$/;

/**
 * Whether one simple command is in rein's built-in read-only set, which never asks, as Claude
 * Code's: `ls`, `cat`, `pwd`, `echo`, `head`, `wc`, `grep`, `diff`, `jq`, …; `find`
 * without `-exec`, `-execdir`, `-ok`, `-delete` or `-fprint…`; `sort` without `-o`; `rg`
 * without `--pre`; `uniq` without an output file; and `git status`,
 * `git diff`, `git log`, `git show`, `git blame`, `git describe`, … (without `--output`),
 * `git branch` and `git tag` listing only, `git remote -v`. Wrappers are looked through. False
 * for a compound or complex command, one with variable assignments in front, and one that
 * redirects output anywhere but `/dev/null` or another descriptor. `claude` false: the smaller
 * set of sessions recorded before rein read Claude Code's (see `PermissionRules.claudeBash`).
 * Pure.
 */
export function isReadOnlyCommand(part: string, claude = true): boolean {
  const lexed = lexCommand(part);
  const [tokens, ...rest] = lexed.parts;
  if (lexed.complex || tokens === undefined || rest.length > 0) return false;
  const unwrapped = unwrapTokens(tokens);
  if (unwrapped.assignments.length > 0 || !redirectsOnlyHarmlessly(unwrapped.tokens)) return false;
  const words = unwrapped.tokens.flatMap((token) => token.kind === "word" ? [token.value] : []);
  const [program, subcommand, ...args] = words;
  if (program === undefined) return false;
  if ((claude ? READ_ONLY_PROGRAMS : EARLIER_PROGRAMS).has(program)) return true;
  const safe = claude ? READ_ONLY_UNLESS.get(program) : undefined;
  if (safe !== undefined) return safe(words.slice(1));
  if (program !== "git" || subcommand === undefined) return false;
  const writing = claude ? GIT_WRITING_OPTION : EARLIER_GIT_WRITING_OPTION;
  if (args.some((arg) => writing.test(arg))) return false;
  if ((claude ? READ_ONLY_GIT : EARLIER_GIT).has(subcommand)) return true;
  if (subcommand === "branch") {
    return args.every((arg) => ["--list", "-a", "-r", "-v", "-vv", "--show-current"].includes(arg));
  }
  if (subcommand === "tag" && claude) {
    const listing = args.some((arg) => arg === "-l" || arg === "--list");
    return args.every((arg) => GIT_TAG_LISTING.test(arg) || (listing && !arg.startsWith("-")));
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
