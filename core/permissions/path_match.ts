import type { Ignore, Options } from "ignore";
import { isAbsolute, relative, resolve } from "../../events/posix_path.ts";

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
  const compiled = compiledOf(pattern, context);
  if (compiled.glob === "" || compiled.glob === "/") return false;
  const path = relativeTo(compiled.base, file);
  if (path === "" || path === ".." || path.startsWith("../") || isAbsolute(path)) return false;
  if (compiled.literal !== null) {
    return path === compiled.literal || path.startsWith(`${compiled.literal}/`);
  }
  if (compiled.prefix !== "" && !path.startsWith(compiled.prefix)) return false;
  return matcherOf(compiled.glob).ignores(path);
}

/** A pattern placed in a context, with what lets most files be told apart without matching. */
interface CompiledPattern {
  base: string;
  glob: string;
  /** An anchored pattern without wildcards: the one file or directory it names. */
  literal: string | null;
  /** An anchored pattern's whole directories before its first wildcard (`src/gen/`). */
  prefix: string;
}

/** Patterns compiled for the last context: a call checks many rules in one context. */
let compiledFor: { context: PathContext | null; patterns: Map<string, CompiledPattern> } = {
  context: null,
  patterns: new Map(),
};

function compiledOf(pattern: string, context: PathContext): CompiledPattern {
  const same = compiledFor.context !== null && compiledFor.context.cwd === context.cwd &&
    compiledFor.context.home === context.home &&
    compiledFor.context.projectRoot === context.projectRoot;
  if (!same || compiledFor.patterns.size > 10_000) {
    compiledFor = { context: { ...context }, patterns: new Map() };
  }
  let compiled = compiledFor.patterns.get(pattern);
  if (compiled === undefined) {
    const { base, glob } = anchor(pattern.trim(), context);
    const anchored = glob.startsWith("/");
    const wild = glob.search(/[*?[\]!\\]/);
    const literal = anchored && !glob.endsWith("/") && wild === -1 ? glob.slice(1) : null;
    const head = wild === -1 ? glob : glob.slice(0, wild);
    const prefix = anchored ? head.slice(1, head.lastIndexOf("/") + 1) : "";
    compiled = { base, glob, literal, prefix };
    compiledFor.patterns.set(pattern, compiled);
  }
  return compiled;
}

/** The last file placed under the last base: one call checks many rules against one file. */
let last = { base: "", file: "", path: "" };

function relativeTo(base: string, file: string): string {
  if (last.base !== base || last.file !== file) {
    last = { base, file, path: relative(base, resolve(file)) };
  }
  return last.path;
}

/** The gitignore matcher, loaded on demand: most rules never need it, and start-up is spared. */
let ignoreFactory: ((options: Options) => Ignore) | undefined;

/**
 * Load the gitignore matcher that path rules with wildcards use. Await it once before matching
 * (the permission gate does); matching itself stays synchronous and pure.
 */
export async function loadPathMatcher(): Promise<void> {
  ignoreFactory ??= (await import("ignore")).default;
}

/** Compiled gitignore matchers by pattern: a rule is checked on every call, compiled once. */
const matchers = new Map<string, Ignore>();

function matcherOf(glob: string): Ignore {
  let matcher = matchers.get(glob);
  if (!matcher) {
    if (!ignoreFactory) {
      throw new Error("Path rules with wildcards need `await loadPathMatcher()` first");
    }
    matcher = ignoreFactory({ ignorecase: false }).add(glob);
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
