import { formatNumber, plural } from "./_format.ts";

/**
 * Collects streamed text in bounded memory and renders it within `maxChars`, keeping the head
 * and the tail on line boundaries with a note of what was cut between them:
 * `[… 1,234 lines (56,789 characters) cut …]`.
 */
export class CappedOutput {
  readonly maxChars: number;
  #head = "";
  #tail = "";
  #totalChars = 0;
  #totalNewlines = 0;

  constructor(maxChars = 30_000) {
    this.maxChars = maxChars;
  }

  /** Total characters appended so far. */
  get totalChars(): number {
    return this.#totalChars;
  }

  /** Adds a chunk. Memory stays within a few times `maxChars` however much is appended. */
  append(text: string): void {
    if (text === "") return;
    this.#totalChars += text.length;
    this.#totalNewlines += countNewlines(text);
    if (this.#head.length < this.maxChars) {
      this.#head += text.slice(0, this.maxChars - this.#head.length);
    }
    this.#tail += text;
    if (this.#tail.length > 2 * this.maxChars) this.#tail = this.#tail.slice(-this.maxChars);
  }

  /** The collected text, whole when it fits, else head + cut note + tail. Pure. */
  render(): string {
    if (this.#totalChars <= this.maxChars) return this.#head;
    const half = Math.floor(this.maxChars / 2);
    const head = cutBackToLineEnd(this.#head.slice(0, half));
    const tail = cutForwardToLineStart(this.#tail.slice(-half));
    const cutChars = this.#totalChars - head.length - tail.length;
    const cutLines = this.#totalNewlines - countNewlines(head) - countNewlines(tail);
    const separator = head.endsWith("\n") ? "" : "\n";
    const characters = `${formatNumber(cutChars)} characters`;
    const what = cutLines > 0 ? `${plural(cutLines, "line")} (${characters})` : characters;
    return `${head}${separator}${cutNote(what)}\n${tail}`;
  }
}

/**
 * The note put where output was cut, `what` saying how much: `[… 56,789 characters cut …]`.
 * Pure.
 */
export function cutNote(what: string): string {
  return `[… ${what} cut …]`;
}

/** Drops a partial last line, unless that would drop more than half of `text`. */
function cutBackToLineEnd(text: string): string {
  const lastNewline = text.lastIndexOf("\n");
  return lastNewline >= text.length / 2 ? text.slice(0, lastNewline + 1) : text;
}

/** Drops a partial first line, unless that would drop more than half of `text`. */
function cutForwardToLineStart(text: string): string {
  const firstNewline = text.indexOf("\n");
  return firstNewline !== -1 && firstNewline < text.length / 2
    ? text.slice(firstNewline + 1)
    : text;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return count;
}
