/**
 * safe-regex2, loaded by {@link loadHookMatchers} only where a matcher is a regular expression:
 * with the regex parser it brings, Deno loads it through its CommonJS layer, which a start whose
 * matchers are names (`Bash`, `Edit|Write`) never needs.
 */
let isSafeRegex: ((regex: RegExp) => boolean) | undefined;

/**
 * Makes `matchers` usable by {@link matcherSelects} and {@link checkMatcher}: loads what a
 * regular-expression matcher among them needs, once. Never throws.
 */
export async function loadHookMatchers(matchers: Iterable<string | undefined>): Promise<void> {
  if (isSafeRegex) return;
  for (const matcher of matchers) {
    if (matcherKind(matcher) === "regex") {
      isSafeRegex = (await import("safe-regex2")).default;
      return;
    }
  }
}

/** How `matcher` is read, before it is compiled. Pure. */
function matcherKind(matcher: string | undefined): "all" | "names" | "regex" {
  if (matcher === undefined || matcher === "" || matcher === "*") return "all";
  return EXACT_NAMES.test(matcher) ? "names" : "regex";
}

/** Matchers read as a list of exact names: letters, digits, `_` and `|` only. */
const EXACT_NAMES = /^[A-Za-z0-9_|]+$/;

type CompiledMatcher =
  | { kind: "all" }
  | { kind: "names"; names: ReadonlySet<string> }
  | { kind: "regex"; regex: RegExp }
  | { kind: "unusable"; message: string };

/**
 * Whether a hook matcher selects `value` (a tool name, a SessionStart source, …), or any of
 * `value` when given several names for one thing. Pure; a regular-expression matcher needs
 * {@link loadHookMatchers} first (it throws otherwise, a mistake of the caller's).
 *
 * As in Claude Code: an empty, `*` or absent matcher selects everything; a matcher of only
 * letters, digits, `_` and `|` is a list of exact, case-sensitive names (`Edit|Write`); anything
 * else is a JavaScript regular expression tested unanchored, like `new RegExp(m).test(value)`
 * (so `Bash.*` also selects `BashOutput`; write `^Bash$` to pin it). A matcher that is not a
 * valid regular expression, or whose regular expression could backtrack for exponential time,
 * selects nothing: {@linkcode checkMatcher} says why.
 *
 * Tool events pass every name of the tool (see `hookMatchNames`): Claude Code's (`Bash`) and
 * rein's (`bash`), so a matcher written with either selects it.
 */
export function matcherSelects(
  matcher: string | undefined,
  value: string | readonly string[],
): boolean {
  const compiled = compileMatcher(matcher);
  const values = typeof value === "string" ? [value] : value;
  switch (compiled.kind) {
    case "all":
      return true;
    case "names":
      return values.some((name) => compiled.names.has(name));
    case "regex":
      return values.some((name) => compiled.regex.test(name));
    case "unusable":
      return false;
  }
}

/**
 * A message naming `matcher` when it can select nothing because it is not a valid regular
 * expression or is unsafe to run (a quantifier inside a repeated group, such as `(a+)+`);
 * `undefined` for a usable matcher. Pure.
 */
export function checkMatcher(matcher: string | undefined): string | undefined {
  const compiled = compileMatcher(matcher);
  return compiled.kind === "unusable" ? compiled.message : undefined;
}

function compileMatcher(matcher: string | undefined): CompiledMatcher {
  const kind = matcherKind(matcher);
  if (kind === "all" || matcher === undefined) return { kind: "all" };
  if (kind === "names") {
    return { kind: "names", names: new Set(matcher.split("|").filter((name) => name !== "")) };
  }
  let regex: RegExp;
  try {
    regex = new RegExp(matcher);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      kind: "unusable",
      message: `Hook matcher "${matcher}" is not a valid regular expression, so its hooks never ` +
        `run: ${reason}`,
    };
  }
  // The matcher comes from a repository's settings, and no signal can interrupt a running match.
  if (!isSafeRegex) {
    throw new Error("A regular-expression hook matcher needs `await loadHookMatchers(…)` first");
  }
  if (!isSafeRegex(regex)) {
    return {
      kind: "unusable",
      message: `Hook matcher "${matcher}" could take exponential time (a quantifier inside a ` +
        "repeated group), so its hooks never run: rewrite it without nested repetition, e.g. " +
        "(a+)+ as a+",
    };
  }
  return { kind: "regex", regex };
}
