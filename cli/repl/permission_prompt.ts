import type {
  PermissionAnswer,
  PermissionQuestion,
} from "../../core/permissions/permissions_mechanism.ts";
import { stripControls } from "../render/render.ts";
import type { Styles } from "../render/style.ts";

/**
 * The person's answer from what they typed at the permission question, or undefined when it is
 * not one: `1`/`y`/`yes` runs the call once; `2`/`a`/`always` runs it and saves the rule; `3`,
 * `n` or `no`, optionally followed by the reason for the model (`3 use pnpm instead`). Pure.
 */
export function parseAnswer(line: string): PermissionAnswer | undefined {
  const match = /^\s*([^\s:,]+)\s*[:,]?\s*(.*)$/s.exec(line);
  if (!match) return undefined;
  const word = (match[1] ?? "").toLowerCase();
  const rest = (match[2] ?? "").trim();
  if (["1", "y", "yes"].includes(word) && rest === "") return { answer: "yes" };
  if (["2", "a", "always"].includes(word) && rest === "") return { answer: "always" };
  if (["3", "n", "no"].includes(word)) {
    return rest === "" ? { answer: "no" } : { answer: "no", reason: rest };
  }
  return undefined;
}

/** The question's lines: the call as the transcript shows it (`call`), why it asks, the choices. */
export function questionLines(
  question: PermissionQuestion,
  call: string[],
  styles: Styles,
): string[] {
  return [
    ...call,
    ...wholeCommand(question, styles),
    styles.yellow(`  Allow this ${question.tool} call? (${stripControls(question.asked)})`),
    `  ${styles.bold("1")} Yes`,
    // A write under .claude/ or .git/ asks every time: no rule is offered for it.
    ...(question.protectedPath === undefined
      ? [
        `  ${styles.bold("2")} Yes, and don't ask again for ${
          // The rule as saved: a command's newlines shown as \n, its escapes gone (they could
          // move the cursor and repaint this question).
          styles.bold(
            stripControls(question.suggestion).replaceAll("\n", "\\n"),
          )} (saved in .claude/settings.local.json)`,
      ]
      : []),
    `  ${styles.bold("3")} No ${styles.dim('(add a reason for the model: "3 use pnpm instead")')}`,
  ];
}

/** The longest command line the call's line shows whole (it cuts longer ones with `…`). */
const SHOWN_WHOLE = 99;

/**
 * A bash command the call's line cannot show whole (more than one line, or a long one), every
 * line of it: the call's line shows only the first line, cut, and what the person allows is
 * the whole command (a teammate's `npm test` + newline + `curl … | sh` must not read as
 * `npm test`). Pure.
 */
function wholeCommand(question: PermissionQuestion, styles: Styles): string[] {
  const command = question.input["command"];
  if (question.tool !== "bash" || typeof command !== "string") return [];
  const lines = stripControls(command).replace(/\n+$/, "").split("\n");
  if (lines.length === 1 && (lines[0] ?? "").length <= SHOWN_WHOLE) return [];
  return [
    styles.yellow(
      `  The whole command (${lines.length} ${lines.length === 1 ? "line" : "lines"}):`,
    ),
    ...lines.map((line) => `    ${line}`),
  ];
}
