import type { Styles } from "./style.ts";

/** How a stretch of text is painted: a style, or several composed, or none. */
type Paint = (text: string) => string;

/** A stretch of inline text and its paint. */
type Run = { text: string; paint: Paint };

/** A word for wrapping: the spaces before it and its pieces, with their visible widths. */
type Word = { gap: Run[]; gapWidth: number; pieces: Run[]; width: number };

/** An open code fence: its marker (``` or ~~~, maybe longer) and its language, lower-cased. */
type Fence = { marker: string; lang: string };

/**
 * Formats a Markdown answer for the terminal as it streams in. Lines are buffered: each is
 * formatted once its "\n" arrives. Headings are bold without their hashes; `**strong**` is bold,
 * emphasis loses its markers (Styles has no italic); `` `code` `` is cyan; a link is `text (url)`
 * with the url dim; bullets become `•`, numbered items and nesting are kept; a quote gets a dim
 * `│ ` bar; a rule is a dim line of `─` (at most 40). Prose wraps at `width` on word boundaries
 * with a hanging indent, measuring what is visible. Code fences are not printed; code lines are
 * indented by two spaces, never wrapped or altered, and coloured for ts/js/json/py/sh. Not pure:
 * it holds the unfinished line and whether a code block is open. Never throws.
 */
export class MarkdownStream {
  readonly #styles: Styles;
  readonly #width: number;
  #pending = "";
  #fence: Fence | null = null;

  /** `styles` paints; `width` is the terminal's column count, to wrap at (0 or less: no wrap). */
  constructor(styles: Styles, width: number) {
    this.#styles = styles;
    this.#width = width > 0 ? width : 0;
  }

  /**
   * Feed a streamed delta; returns the formatted text of every line completed by it (each ending
   * in "\n"), "" if none. The rest waits for its "\n" or for {@link flush}.
   */
  push(delta: string): string {
    this.#pending += delta;
    const end = this.#pending.lastIndexOf("\n");
    if (end === -1) return "";
    const lines = this.#pending.slice(0, end).split("\n");
    this.#pending = this.#pending.slice(end + 1);
    return lines.flatMap((line) => this.#format(line)).map((line) => `${line}\n`).join("");
  }

  /** The formatted rest (an unterminated last line, no "\n" added); resets for the next answer. */
  flush(): string {
    const rest = this.#pending;
    this.#pending = "";
    const text = rest === "" ? "" : this.#format(rest).join("\n");
    this.#fence = null;
    return text;
  }

  /** The terminal lines of one Markdown line: none for a fence, several for wrapped prose. */
  #format(raw: string): string[] {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (this.#fence) {
      if (closesFence(line, this.#fence)) {
        this.#fence = null;
        return [];
      }
      return [line === "" ? "" : `  ${highlight(line, this.#fence.lang, this.#styles)}`];
    }
    const open = FENCE.exec(line);
    if (open) {
      const info = (open[2] ?? open[4] ?? "").trim().toLowerCase();
      this.#fence = { marker: open[1] ?? open[3] ?? "```", lang: info.split(/\s+/)[0] ?? "" };
      return [];
    }
    return formatBlock(line, this.#styles, this.#width);
  }
}

const FENCE = /^\s*(?:(`{3,})([^`]*)|(~{3,})(.*))$/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;

function closesFence(line: string, fence: Fence): boolean {
  const text = line.trim();
  return text.length >= fence.marker.length && text === fence.marker[0]?.repeat(text.length);
}

/** One Markdown line outside code as terminal lines, wrapped at `width` (0: not wrapped). */
function formatBlock(line: string, s: Styles, width: number): string[] {
  if (line.trim() === "") return [""];
  const heading = HEADING.exec(line);
  if (heading) return wrap(inline(heading[1] ?? "", s, s.bold), "", "", width);
  if (RULE.test(line)) return [s.dim("─".repeat(width > 0 ? Math.min(width, 40) : 40))];
  const quote = QUOTE.exec(line);
  if (quote) {
    const body = quote[1] ?? "";
    const inner = body.trim() === ""
      ? [""]
      : formatBlock(body, s, width > 0 ? Math.max(width - 2, 1) : 0);
    return inner.map((text) => text === "" ? s.dim("│") : `${s.dim("│")} ${text}`);
  }
  const item = ITEM.exec(line);
  if (item) {
    const indent = expandTabs(item[1] ?? "");
    const marker = /^\d/.test(item[2] ?? "") ? item[2] ?? "" : "•";
    const hanging = " ".repeat(indent.length + marker.length + 1);
    return wrap(inline((item[3] ?? "").trim(), s), `${indent}${marker} `, hanging, width);
  }
  const indent = expandTabs(/^\s*/.exec(line)?.[0] ?? "");
  // Wrapping a table row would tear its columns apart.
  if (line.trimStart().startsWith("|")) return [`${indent}${paintRuns(inline(line.trim(), s))}`];
  return wrap(inline(line.trim(), s), indent, indent, width);
}

function expandTabs(indent: string): string {
  return indent.replaceAll("\t", "    ");
}

const INLINE = new RegExp(
  [
    /\\(?<escaped>[\\`*_{}[\]()#+\-.!>|~])/,
    /(?<ticks>`+)(?<code>.+?)\k<ticks>/,
    /!?\[(?<label>[^\]]+)\]\((?<url>[^)\s]+)(?:\s+"[^"]*")?\)/,
    /\*\*(?<strong>\S(?:.*?\S)?)\*\*/,
    /(?<!\w)__(?<strongUnderscore>\S(?:.*?\S)?)__(?!\w)/,
    /\*(?<em>[^\s*](?:.*?[^\s*])?)\*/,
    /(?<!\w)_(?<emUnderscore>[^\s_](?:.*?[^\s_])?)_(?!\w)/,
  ].map((pattern) => pattern.source).join("|"),
  "g",
);

/** Inline Markdown as painted runs, the markers removed; `paint` is the style around it all. */
function inline(text: string, s: Styles, paint: Paint = unpainted): Run[] {
  const runs: Run[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const g = match.groups ?? {};
    if (match.index > last) runs.push({ text: text.slice(last, match.index), paint });
    last = match.index + match[0].length;
    const strong = g.strong ?? g.strongUnderscore;
    if (g.escaped !== undefined) runs.push({ text: g.escaped, paint });
    else if (g.code !== undefined) {
      runs.push({ text: trimCode(g.code), paint: layer(paint, s.cyan) });
    } else if (g.label !== undefined) {
      runs.push(...inline(g.label, s, paint), { text: " (", paint });
      runs.push({ text: g.url ?? "", paint: layer(paint, s.dim) }, { text: ")", paint });
    } else if (strong !== undefined) runs.push(...inline(strong, s, layer(paint, s.bold)));
    else runs.push(...inline(g.em ?? g.emUnderscore ?? "", s, paint));
  }
  if (last < text.length) runs.push({ text: text.slice(last), paint });
  return runs;
}

function unpainted(text: string): string {
  return text;
}

function layer(outer: Paint, inner: Paint): Paint {
  return (text) => outer(inner(text));
}

/** A code span's text: one space is stripped from each end when both have one (CommonMark). */
function trimCode(code: string): string {
  return code.length > 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== ""
    ? code.slice(1, -1)
    : code;
}

/** Runs as terminal lines: `first` then `rest` before each, wrapped at `width` (0: not wrapped). */
function wrap(runs: Run[], first: string, rest: string, width: number): string[] {
  const room = width > 0 ? Math.max(width - textWidth(first), 1) : Infinity;
  return layout(runs, room).map((line, i) => `${i === 0 ? first : rest}${paintRuns(line)}`);
}

/** Greedy word wrap; a word wider than `room` is broken wherever the line is full. */
function layout(runs: Run[], room: number): Run[][] {
  const lines: Run[][] = [[]];
  let line = lines[0] ?? [];
  let column = 0;
  for (const word of words(runs)) {
    if (column > 0 && column + word.gapWidth + word.width > room) {
      lines.push(line = []);
      column = 0;
    }
    if (column > 0) {
      line.push(...word.gap);
      column += word.gapWidth;
    }
    if (word.width <= room) {
      line.push(...word.pieces);
      column += word.width;
      continue;
    }
    for (const piece of word.pieces) {
      for (const char of piece.text) {
        const width = textWidth(char);
        if (column > 0 && column + width > room) {
          lines.push(line = []);
          column = 0;
        }
        line.push({ text: char, paint: piece.paint });
        column += width;
      }
    }
  }
  return lines;
}

/** Runs split into words at spaces, a word keeping the paint of each of its pieces. */
function words(runs: Run[]): Word[] {
  const found: Word[] = [];
  let word: Word = { gap: [], gapWidth: 0, pieces: [], width: 0 };
  for (const run of runs) {
    for (const part of run.text.split(/( +)/)) {
      if (part === "") continue;
      if (part.startsWith(" ")) {
        if (word.pieces.length > 0) {
          found.push(word);
          word = { gap: [], gapWidth: 0, pieces: [], width: 0 };
        }
        word.gap.push({ text: part, paint: run.paint });
        word.gapWidth += part.length;
      } else {
        word.pieces.push({ text: part, paint: run.paint });
        word.width += textWidth(part);
      }
    }
  }
  if (word.pieces.length > 0) found.push(word);
  return found;
}

/** Runs painted, neighbours with the same paint as one stretch, so no style spans a line end. */
function paintRuns(runs: Run[]): string {
  let painted = "";
  for (let i = 0; i < runs.length;) {
    const paint = runs[i]?.paint ?? unpainted;
    let text = "";
    while (i < runs.length && runs[i]?.paint === paint) text += runs[i++]?.text ?? "";
    painted += paint(text);
  }
  return painted;
}

const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200b-\u200f\ufe0f]/u;

/**
 * Columns `text` (without escape codes) takes on a terminal: East Asian wide characters and
 * emoji 2, marks 0. Pure.
 */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += ZERO_WIDTH.test(char) ? 0 : WIDE.test(char) ? 2 : 1;
  return width;
}

/** A grammar's tokens, in priority order: comment, string, keyword. */
function grammar(comment: string, string: string, keywords: string): RegExp {
  const words = keywords.split(" ").join("|");
  return new RegExp(`(${comment})|(${string})|(?<![\\w$])(?:${words})(?![\\w$])`, "g");
}

const DOUBLE = String.raw`"(?:[^"\\]|\\.)*"`;
const SINGLE = String.raw`'(?:[^'\\]|\\.)*'`;

const GRAMMARS: Record<string, RegExp> = {
  js: grammar(
    String.raw`\/\/.*|\/\*.*?\*\/`,
    `${DOUBLE}|${SINGLE}|${String.raw`\`(?:[^\`\\]|\\.)*\``}`,
    "as async await break case catch class const continue default delete do else enum export " +
      "extends false finally for from function if implements import in instanceof interface let " +
      "new null of private public readonly return static super switch this throw true try type " +
      "typeof undefined var void while yield",
  ),
  json: grammar(String.raw`\/\/.*`, DOUBLE, "true false null"),
  py: grammar(
    "#.*",
    `${DOUBLE}|${SINGLE}`,
    "and as assert async await break class continue def del elif else except False finally for " +
      "from global if import in is lambda None nonlocal not or pass raise return self True try " +
      "while with yield",
  ),
  sh: grammar(
    String.raw`(?<!\S)#.*`,
    `${DOUBLE}|'[^']*'`,
    "case do done elif else esac exit export fi for function if in local return then until while",
  ),
};

/** Fence languages by the grammar that colours them. */
const LANGUAGES = new Map(
  Object.entries({
    js: "ts typescript tsx js javascript jsx mjs",
    json: "json jsonc",
    py: "py python",
    sh: "sh bash shell zsh",
  }).flatMap(([grammar, names]) => names.split(" ").map((name) => [name, grammar] as const)),
);

/** A code line with comments dim, strings green and keywords cyan; its characters unchanged. */
function highlight(line: string, lang: string, s: Styles): string {
  const tokens = GRAMMARS[LANGUAGES.get(lang) ?? ""];
  if (!tokens) return line;
  return line.replace(
    tokens,
    (match, comment?: string, string?: string) =>
      comment ? s.dim(match) : string ? s.green(match) : s.cyan(match),
  );
}
