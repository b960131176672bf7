import ignore from "ignore";
import { isAbsolute, relative, resolve } from "node:path";

/** The directories a path rule is anchored to. All absolute. */
export interface PathContext {
  /** The working directory: `x` and `./x` patterns are relative to it. */
  cwd: string;
  /** The home directory: `~/x` patterns are relative to it. */
  home: string;
  /** The project of the settings file: `/x` patterns are relative to it. */
  projectRoot: string;
}

/**
 * Whether a `Read(pattern)` / `Edit(pattern)` rule covers the absolute path `file`. Pure.
 *
 * Patterns are gitignore-style: `//abs/path` is absolute, `~/x` is in the home directory, `/x`
 * is relative to the project root, `./x` to the working directory; a bare `x` is relative to the
 * working directory with gitignore's meaning (without a `/` inside, `*.env` matches at any
 * depth below it). `*` stays within one path segment, `**` crosses them, a trailing `/` matches
 * only directories (so the files under them), and a pattern naming a directory covers what is
 * inside it. Matching is case-sensitive; a file outside the pattern's base never matches.
 */
export function pathRuleMatches(pattern: string, file: string, context: PathContext): boolean {
  const { base, glob } = anchor(pattern.trim(), context);
  if (glob === "" || glob === "/") return false;
  const path = relativeTo(base, file);
  if (path === "" || path === ".." || path.startsWith("../") || isAbsolute(path)) return false;
  // An anchored pattern without wildcards names one file or directory: compare, don't compile.
  if (glob.startsWith("/") && !glob.endsWith("/") && !/[*?[\]!\\]/.test(glob)) {
    const literal = glob.slice(1);
    return path === literal || path.startsWith(`${literal}/`);
  }
  return matcherOf(glob).ignores(path);
}

/** The last file placed under the last base: one call checks many rules against one file. */
let last = { base: "", file: "", path: "" };

function relativeTo(base: string, file: string): string {
  if (last.base !== base || last.file !== file) {
    last = { base, file, path: relative(base, resolve(file)) };
  }
  return last.path;
}

/** Compiled gitignore matchers by pattern: a rule is checked on every call, compiled once. */
const matchers = new Map<string, ReturnType<typeof ignore>>();

function matcherOf(glob: string): ReturnType<typeof ignore> {
  let matcher = matchers.get(glob);
  if (!matcher) {
    matcher = ignore({ ignorecase: false }).add(glob);
    if (matchers.size > 10_000) matchers.clear();
    matchers.set(glob, matcher);
  }
  return matcher;
}

/** The directory a pattern is relative to, and the gitignore pattern to apply there. */
function anchor(pattern: string, context: PathContext): { base: string; glob: string } {
  if (pattern.startsWith("//")) return { base: "/", glob: everything(pattern.slice(1)) };
  if (pattern === "~" || pattern.startsWith("~/")) {
    return { base: context.home, glob: everything(pattern.slice(1)) };
  }
  if (pattern.startsWith("/")) return { base: context.projectRoot, glob: everything(pattern) };
  if (
    pattern === "." || pattern.startsWith("./") || pattern === ".." || pattern.startsWith("../")
  ) {
    // Climb out of the working directory for each leading `..`, then anchor there.
    let base = context.cwd;
    let rest = pattern;
    for (;;) {
      if (rest === "." || rest === "..") rest += "/";
      if (rest.startsWith("./")) rest = rest.slice(2);
      else if (rest.startsWith("../")) {
        base = resolve(base, "..");
        rest = rest.slice(3);
      } else break;
    }
    return { base, glob: everything(`/${rest}`) };
  }
  return { base: context.cwd, glob: pattern };
}

/** A pattern naming the base directory itself (`/`) means everything under it. */
function everything(glob: string): string {
  return glob === "/" || glob === "" ? "/**" : glob;
}
