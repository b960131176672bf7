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

/**
 * A line a mechanism rendered (`Mechanism.render`), in `styles`: each piece in its own, without
 * the control sequences its text may hold (mail, a task's subject, a reason: another agent's
 * words must not retitle, clear or repaint the person's terminal). Pure.
 */
export function paintLine(line: RenderedLine, styles: Styles): string {
  return line.map((span) => {
    const text = stripControls(span.text);
    return span.style === "plain" ? text : styles[span.style](text);
  }).join("");
}

/**
 * `text` without terminal control sequences (CSI, OSC, other escapes) or control characters
 * other than newline and tab: what the model or a command prints cannot retitle, clear or
 * reprogram the user's terminal. Pure.
 */
export function stripControls(text: string): string {
  return text.replace(CONTROLS, "");
}

// ESC [ … final byte | ESC ] … (BEL | ESC \) | ESC and one byte | C0 controls but \t \n | DEL, C1.
const CONTROLS =
  // deno-lint-ignore no-control-regex
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
