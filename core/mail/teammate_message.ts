/** A letter as the model reads it. */
export interface ShownLetter {
  /** The sender, as the recipient may address it back (`team-lead` for the lead). */
  from: string;
  content: string;
  summary?: string;
}

/**
 * Mail as Claude Code puts it before the model: each letter a
 * `<teammate-message teammate_id="alice" summary="…">` block around its text, several joined
 * by blank lines. The sender is marked by the block alone: a letter's text that holds the tag
 * itself has it escaped (`&lt;teammate-message`), so a sender cannot forge a block from another,
 * and attribute values are escaped. Pure.
 */
export function teammateMessages(letters: readonly ShownLetter[]): string {
  return letters.map((letter) => {
    const summary = letter.summary === undefined || letter.summary.trim() === ""
      ? ""
      : ` summary="${attribute(letter.summary)}"`;
    return `<teammate-message teammate_id="${attribute(letter.from)}"${summary}>\n` +
      `${body(letter.content)}\n</teammate-message>`;
  }).join("\n\n");
}

/** `text` as an XML attribute's value (one line). */
function attribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;")
    .replace(/>/g, "&gt;").replace(/\s*[\r\n]+\s*/g, " ");
}

/** `text` with every opening or closing teammate-message tag in it escaped. */
function body(text: string): string {
  return text.replace(/<(\/?\s*teammate-message)/gi, "&lt;$1");
}
