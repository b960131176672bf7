import { errorMessage } from "./_format.ts";
import { RegexWorker } from "./_regex_worker.ts";
import { ripgrepLines, SearchStopped } from "./_ripgrep.ts";

export { SearchStopped };

/** Thrown by {@link LineMatcher.match} when no engine will run the pattern; worded for the model. */
export class PatternRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PatternRefused";
  }
}

/** What a {@link LineMatcher} matches and with which engines. */
export interface LineMatcherOptions {
  pattern: string;
  ignoreCase: boolean;
  /** The ripgrep command ("rg" looks it up on PATH), or null to use only the JavaScript engine. */
  ripgrep: string | null;
}

/**
 * Tells which lines match grep's pattern. ripgrep (linear time, killed on abort) is used when it
 * is installed and accepts the pattern. Otherwise JavaScript's engine, which backtracks, runs in a
 * Worker that is terminated on abort (the caller's time limit included). A pattern only JavaScript accepts (look-around, backreferences) runs in
 * the Worker; one only ripgrep accepts (`(?i)`, `(?P<name>…)`) runs in ripgrep. Use with `using`.
 */
export class LineMatcher implements Disposable {
  readonly #options: LineMatcherOptions;
  readonly #regex: RegExp | undefined;
  #ripgrep: string | null;
  #worker: RegexWorker | undefined;

  private constructor(options: LineMatcherOptions, regex: RegExp | undefined) {
    this.#options = options;
    this.#regex = regex;
    this.#ripgrep = options.ripgrep;
  }

  /** A matcher for the pattern, or the model-facing message why it is not a valid pattern. */
  static async create(
    options: LineMatcherOptions,
    signal: AbortSignal,
  ): Promise<LineMatcher | string> {
    const regex = compile(options.pattern, options.ignoreCase ? "i" : "");
    if (typeof regex !== "string") {
      const matcher = new LineMatcher(options, regex);
      if (options.ripgrep === null) matcher.#useJavaScript();
      return matcher;
    }
    if (options.ripgrep !== null) {
      const { pattern, ignoreCase } = options;
      const probe = await ripgrepLines(options.ripgrep, pattern, ignoreCase, [], signal);
      if (probe.kind === "matched") return new LineMatcher(options, undefined);
    }
    return regex;
  }

  /**
   * The 0-based indexes of `lines` that match, ascending. Throws {@link SearchStopped} when
   * `signal` aborts and {@link PatternRefused} when no engine takes the pattern.
   */
  async match(lines: readonly string[], signal: AbortSignal): Promise<number[]> {
    if (this.#ripgrep !== null) {
      const { pattern, ignoreCase } = this.#options;
      const result = await ripgrepLines(this.#ripgrep, pattern, ignoreCase, lines, signal);
      if (result.kind === "matched") return result.lines;
      this.#useJavaScript();
    }
    if (!this.#worker) throw new PatternRefused(`Cannot search for /${this.#options.pattern}/`);
    return this.#worker.match(lines, signal);
  }

  // No check for nested repetition (safe-regex2) before the Worker: it refuses look-behind,
  // which is what reaches JavaScript's engine when ripgrep is installed, and misses patterns
  // such as (a|a)+$. The Worker's time limit and the cancel bound every pattern instead.
  #useJavaScript(): void {
    this.#ripgrep = null;
    if (this.#regex !== undefined) this.#worker = new RegexWorker(this.#regex);
  }

  [Symbol.dispose](): void {
    this.#worker?.[Symbol.dispose]();
  }
}

/**
 * Compiles the model's pattern with the `u` flag (so `\p{L}` and astral characters work), falling
 * back to legacy syntax for patterns only it accepts, such as `\-` outside a class.
 */
function compile(pattern: string, flags: string): RegExp | string {
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      const detail = errorMessage(error).replace(/^Invalid regular expression: \/.*\/\w*: /, "");
      return `Invalid regular expression "${pattern}": ${detail}`;
    }
  }
}
