import { formatNumber, plural } from "./_format.ts";

/** How the grep tool shows what it found. */
export type GrepMode = "files_with_matches" | "content" | "count";

/** Options of {@link GrepOutput}. */
export interface GrepOutputOptions {
  mode: GrepMode;
  /** Lines of context around each match, in content mode. */
  context: number;
  /** Show only this many entries (lines in content mode, files otherwise). */
  headLimit?: number | undefined;
  /** Output size cap in characters. */
  maxChars?: number;
}

const MAX_LINE_CHARS = 500;

/**
 * Builds grep's output file by file in bounded memory: entries beyond `headLimit` or the size cap
 * are counted, not kept, and the rendering ends with a note of how many were left out.
 */
export class GrepOutput {
  readonly #options: GrepOutputOptions;
  readonly #maxChars: number;
  readonly #shown: string[] = [];
  #chars = 0;
  #counted = 0;
  #omitted = 0;
  #cutBy: "head_limit" | "size" | null = null;

  constructor(options: GrepOutputOptions) {
    this.#options = options;
    this.#maxChars = options.maxChars ?? 30_000;
  }

  /** Whether nothing has been added yet. */
  get isEmpty(): boolean {
    return this.#shown.length === 0 && this.#omitted === 0;
  }

  /** Adds one file's matches; `matchingLines` are 0-based indexes into `lines`, ascending. */
  addFile(relative: string, lines: readonly string[], matchingLines: readonly number[]): void {
    switch (this.#options.mode) {
      case "files_with_matches":
        return this.#add(relative);
      case "count":
        return this.#add(`${relative}:${matchingLines.length}`);
      case "content":
        return this.#addContent(relative, lines, matchingLines);
      default: {
        const unknownMode: never = this.#options.mode;
        throw new TypeError(`Unknown grep output mode "${unknownMode}"`);
      }
    }
  }

  /** The entries kept, one per line, with a closing note when some were left out. Pure. */
  render(): string {
    if (this.#omitted === 0) return this.#shown.join("\n");
    const unit = this.#options.mode === "content" ? "more line" : "more file";
    const why = this.#cutBy === "head_limit"
      ? `(head_limit ${this.#options.headLimit})`
      : `to keep the output under ${
        formatNumber(this.#maxChars)
      } characters; narrow the pattern, path or glob, or use head_limit`;
    return [...this.#shown, `[… ${plural(this.#omitted, unit)} not shown ${why}]`].join("\n");
  }

  #addContent(relative: string, lines: readonly string[], matchingLines: readonly number[]): void {
    const { context } = this.#options;
    const matching = new Set(matchingLines);
    let previousEnd = -1;
    for (const index of matchingLines) {
      const from = Math.max(index - context, previousEnd + 1);
      const to = Math.min(index + context, lines.length - 1);
      const startsGroup = previousEnd === -1 || from > previousEnd + 1;
      if (context > 0 && startsGroup && this.#shown.length > 0) this.#add("--", false);
      for (let i = from; i <= to; i++) {
        const separator = matching.has(i) ? ":" : "-";
        this.#add(`${relative}${separator}${i + 1}${separator}${cutLine(lines[i] ?? "")}`);
      }
      previousEnd = Math.max(previousEnd, to);
    }
  }

  #add(entry: string, counts = true): void {
    const { headLimit } = this.#options;
    if (this.#cutBy === null && counts && headLimit !== undefined && this.#counted >= headLimit) {
      this.#cutBy = "head_limit";
    }
    if (this.#cutBy === null && this.#chars + entry.length + 1 > this.#maxChars) {
      this.#cutBy = "size";
    }
    if (this.#cutBy !== null) {
      if (counts) this.#omitted++;
      return;
    }
    this.#shown.push(entry);
    this.#chars += entry.length + 1;
    if (counts) this.#counted++;
  }
}

function cutLine(line: string): string {
  return line.length > MAX_LINE_CHARS
    ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${formatNumber(line.length)} characters]`
    : line;
}
