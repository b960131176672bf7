/** An `@path` import in an instruction file, as written, with the line it is on (from 1). */
export interface ImportReference {
  path: string;
  line: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const IMPORT = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;

/**
 * The `@path` imports of a Markdown text, as Claude Code reads them: an `@` at the start of a
 * line or after white space, followed by a path (`\ ` for a space; a `#fragment` and trailing
 * punctuation dropped). Nothing inside a fenced code block or an inline code span is an import,
 * and neither is a word without a `.` or `/` (`@param`, `@someone`), so prose mentions stay
 * prose. Pure.
 */
export function importReferences(text: string): ImportReference[] {
  const found: ImportReference[] = [];
  let fence: string | undefined;
  text.split("\n").forEach((raw, index) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      const closes = marker !== undefined && marker[0] === fence[0] &&
        marker.length >= fence.length && line.trim() === marker;
      if (closes) fence = undefined;
      return;
    }
    if (marker !== undefined) {
      fence = marker;
      return;
    }
    for (const match of withoutCodeSpans(line).matchAll(IMPORT)) {
      const path = importPath(match[1] ?? "");
      if (path !== undefined) found.push({ path, line: index + 1 });
    }
  });
  return found;
}

/** The path an `@` token names, or undefined when the token does not look like a path. */
function importPath(token: string): string | undefined {
  const path = token.replaceAll("\\ ", " ").replace(/#.*$/, "").replace(/[.,;:!?)\]]+$/, "");
  if (!/[./]/.test(path) || !/^(?:[\w.~-]|\/)/.test(path)) return undefined;
  return path;
}

/** `line` with every inline code span (a run of backticks to the next run as long) blanked. */
function withoutCodeSpans(line: string): string {
  let out = "";
  let i = 0;
  while (i < line.length) {
    if (line[i] !== "`") {
      out += line[i];
      i++;
      continue;
    }
    const open = runEnd(line, i);
    const close = closingRun(line, open, open - i);
    if (close === undefined) {
      out += line.slice(i, open);
      i = open;
    } else {
      out += " ".repeat(close - i);
      i = close;
    }
  }
  return out;
}

/** Where the run of backticks starting at `start` ends. */
function runEnd(line: string, start: number): number {
  let end = start;
  while (line[end] === "`") end++;
  return end;
}

/** The end of the first run of exactly `length` backticks from `from`, if any. */
function closingRun(line: string, from: number, length: number): number | undefined {
  let i = from;
  while (i < line.length) {
    if (line[i] !== "`") {
      i++;
      continue;
    }
    const end = runEnd(line, i);
    if (end - i === length) return end;
    i = end;
  }
  return undefined;
}
