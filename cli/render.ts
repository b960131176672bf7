import type { Envelope } from "../events/types.ts";
import type { AnyTool } from "../core/tools/tool.ts";
import type { Styles } from "./style.ts";

/** Where rendered output goes. */
export interface Sink {
  write(text: string): void;
}

/**
 * Renders a session as a person reads it: assistant text as it streams, one line per tool call
 * (name and key argument) with a short result line, retries, and how each turn ended. Used by the
 * REPL, by `-p --output-format text` progress on stderr, and by `replay`.
 */
export class Renderer {
  readonly #out: Sink;
  readonly #styles: Styles;
  readonly #tools: Map<string, AnyTool>;
  #atLineStart = true;

  constructor(out: Sink, styles: Styles, tools: readonly AnyTool[]) {
    this.#out = out;
    this.#styles = styles;
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** Streamed assistant text. */
  text(delta: string): void {
    if (!delta) return;
    this.#out.write(delta);
    this.#atLineStart = delta.endsWith("\n");
  }

  /** Print a line of its own (a notice, an error), starting on a fresh line. */
  line(text: string): void {
    this.#newline();
    this.#out.write(`${text}\n`);
    this.#atLineStart = true;
  }

  /** Render one event of the session. */
  event(event: Envelope): void {
    const s = this.#styles;
    switch (event.type) {
      case "user.prompted":
        this.line(s.bold(`> ${event.data.text}`));
        break;
      case "tool.requested":
        this.line(
          `${s.cyan("●")} ${s.bold(event.data.name)} ${
            this.#summarize(event.data.name, event.data.input)
          }`,
        );
        break;
      case "tool.completed": {
        const summary = resultSummary(event.data.content);
        const marker = `  ${s.dim("⎿")} `;
        if (event.data.outcome === "interrupted") {
          this.line(`${marker}${s.yellow(`${event.data.name}: interrupted, outcome unknown`)}`);
        } else if (event.data.outcome === "cancelled") {
          this.line(`${marker}${s.yellow("cancelled")}`);
        } else if (event.data.isError) this.line(`${marker}${s.red(summary)}`);
        else this.line(`${marker}${s.dim(summary)}`);
        break;
      }
      case "model.failed": {
        const { retryInMs, message, attempt } = event.data;
        const next = retryInMs === null
          ? "giving up"
          : `retrying in ${(retryInMs / 1000).toFixed(1)}s (attempt ${attempt + 1})`;
        this.line(s.yellow(`  ${message}; ${next}`));
        break;
      }
      case "model.responded":
        if (!this.#atLineStart) this.#newline();
        break;
      case "turn.ended":
        if (event.data.reason === "failed") this.line(s.red(`✗ ${event.data.message ?? "failed"}`));
        else if (event.data.reason === "cancelled") this.line(s.yellow("⏹ Cancelled"));
        else if (event.data.reason === "max_turns") {
          this.line(s.yellow(`⏹ ${event.data.message ?? "Stopped at --max-turns"}`));
        } else if (event.data.reason === "interrupted") {
          this.line(s.yellow("⏹ The previous run was interrupted"));
        }
        break;
      case "session.resumed":
        this.line(s.dim(`— resumed (${event.data.how})`));
        break;
      case "session.started":
      case "turn.started":
      case "model.requested":
      case "model.cancelled":
        break;
    }
  }

  #summarize(name: string, input: unknown): string {
    const tool = this.#tools.get(name);
    let text: string;
    try {
      text = tool ? tool.summarize(input) : JSON.stringify(input);
    } catch {
      text = JSON.stringify(input);
    }
    const line = (text ?? "").split("\n")[0] ?? "";
    return line.length > 100 ? `${line.slice(0, 99)}…` : line;
  }

  #newline() {
    if (!this.#atLineStart) this.#out.write("\n");
    this.#atLineStart = true;
  }
}

/** A one-line summary of a tool result: its first line and how many more there are. */
export function resultSummary(content: string): string {
  const lines = content.replace(/\n+$/, "").split("\n");
  const first = (lines[0] ?? "").trim();
  const head = first.length > 100 ? `${first.slice(0, 99)}…` : first || "(no output)";
  return lines.length > 1 ? `${head} (+${lines.length - 1} lines)` : head;
}
