import type { RenderedLine } from "../../core/state/rendered_line.ts";

/** ANSI styling that turns itself off when the output is not a terminal or NO_COLOR is set. */
export interface Styles {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/** Styles for a stream; plain when `enabled` is false. */
export function createStyles(enabled: boolean): Styles {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}

/** A line a mechanism rendered (`Mechanism.render`), in `styles`: each piece in its own. Pure. */
export function paintLine(line: RenderedLine, styles: Styles): string {
  return line.map((span) => span.style === "plain" ? span.text : styles[span.style](span.text))
    .join("");
}
