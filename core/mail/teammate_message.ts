import { escapeBlockTags } from "./block_tags.ts";

/** A letter as the model reads it. */
export interface ShownLetter {
  /** The sender, as the recipient may address it back (`team-lead` for the lead). */
  from: string;
  content: string;
  summary?: string;
  /**
   * The person's own words, typed at the lead's REPL (`mail.sent`'s `person`): the only letters
   * whose block is marked `from_user="true"`.
   */
  person?: boolean;
}

/**
 * Mail as Claude Code puts it before the model: each letter a
 * `<teammate-message teammate_id="alice" summary="…">` block around its text, several joined
 * by blank lines. The sender is marked by the block alone: a letter's text that holds the tag
 * itself (or rein's `system-reminder` / `auto-claimed`) has it escaped (`&lt;teammate-message`),
 * so a sender cannot forge a block from another, and attribute values are escaped. The person's
 * own words (`person`, only ever from the lead's REPL) are marked `from_user="true"`, which no
 * agent's text can put on a block. Pure.
 */
export function teammateMessages(letters: readonly ShownLetter[]): string {
  return letters.map((letter) => {
    const summary = letter.summary === undefined || letter.summary.trim() === ""
      ? ""
      : ` summary="${attribute(letter.summary)}"`;
    const user = letter.person === true ? ' from_user="true"' : "";
    return `<teammate-message teammate_id="${attribute(letter.from)}"${user}${summary}>\n` +
      `${body(letter.content)}\n</teammate-message>`;
  }).join("\n\n");
}

/** `text` as an XML attribute's value (one line). */
function attribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;")
    .replace(/>/g, "&gt;").replace(/\s*[\r\n]+\s*/g, " ");
}

/** `text` with every opening or closing tag of rein's blocks in it escaped. */
function body(text: string): string {
  return escapeBlockTags(text);
}
