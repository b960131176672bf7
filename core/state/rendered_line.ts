/**
 * What a mechanism shows of its events and slices (see `Mechanism.render` and `Mechanism.report`):
 * plain text with a style kind per piece. The CLI maps each kind to its terminal's colours, or to
 * none (no terminal, `NO_COLOR`, `rein state`); core/ never writes escape codes.
 *
 * @module
 */

/** How a piece of a line looks: as the text around it, or one of the CLI's styles. */
export type RenderStyle = "plain" | "bold" | "dim" | "red" | "green" | "yellow" | "cyan";

/** A piece of a line in one style. */
export interface RenderedSpan {
  text: string;
  style: RenderStyle;
}

/** One line as shown, without its newline: its pieces in order. */
export type RenderedLine = readonly RenderedSpan[];

/** A line of `text` in one style. Pure. */
export function renderedLine(text: string, style: RenderStyle = "plain"): RenderedLine {
  return [{ text, style }];
}

/** The text of a line without its styles. Pure. */
export function plainText(line: RenderedLine): string {
  return line.map((span) => span.text).join("");
}

/**
 * A part of a report (`rein state`): a heading (`todos`, `jobs`, `tasks`) and its lines, which
 * the report indents under it.
 */
export interface ReportSection {
  title: string;
  lines: readonly RenderedLine[];
}
