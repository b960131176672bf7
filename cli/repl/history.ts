import { dirname, join } from "node:path";
import { HISTORY_SIZE } from "./_line_reader.ts";

/**
 * The REPL's prompt history of a workspace, kept beside its log (`.rein/history`, newest line
 * first) so Up/Down reach earlier sessions' prompts. It is the terminal's convenience, not the
 * session's record: the log has every prompt anyway. Reading a missing or unreadable file gives
 * no history; a failed write is ignored (a read-only workspace still works).
 */
export class PromptHistory {
  readonly #path: string;
  readonly #redact: (text: string) => string;

  /** `redact` takes secrets out of a prompt before it is kept, as the log's writer does. */
  constructor(logPath: string, redact: (text: string) => string = (text) => text) {
    this.#path = join(dirname(logPath), "history");
    this.#redact = redact;
  }

  /** The kept prompts, newest first. */
  load(): string[] {
    try {
      return Deno.readTextFileSync(this.#path).split("\n").filter(Boolean).slice(0, HISTORY_SIZE);
    } catch {
      return [];
    }
  }

  /** Keep `lines` (newest first). Prompts of several lines are kept as one line each. */
  save(lines: readonly string[]): void {
    const text = lines.slice(0, HISTORY_SIZE)
      .map((line) => this.#redact(line.replaceAll("\n", " "))).join("\n");
    try {
      Deno.writeTextFileSync(this.#path, `${text}\n`);
    } catch {
      // A workspace we cannot write to still has a REPL; only the history is not kept.
    }
  }
}
