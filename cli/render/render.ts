import type { Envelope, ModelFailureKind } from "../../events/event_types.ts";
import { reinMechanisms } from "../../core/harness.ts";
import type { Mechanism } from "../../core/mechanism.ts";
import type { AnyTool } from "../../core/tools/tool.ts";
import { resultBlockText } from "../../core/tools/result_block_text.ts";
import { paintLine, stripControls, type Styles } from "./style.ts";
import { MarkdownStream, textWidth } from "./markdown.ts";

export { stripControls };

/** Where rendered output goes. */
export interface Sink {
  write(text: string): void;
}

/** What was rendered last; a new block of output is set off from the previous one by a blank line. */
type Block = "none" | "input" | "text" | "tool" | "notice";

/**
 * Renders a session as a person reads it: assistant text as it streams, one line per tool call
 * (name and key argument) with a short result line, retries, and how each turn ended. Blocks
 * (the prompt, a stretch of text, a tool call with its result) are separated by one blank line.
 * Used by the REPL, by `-p --output-format text` progress on stderr, and by `replay`. The kernel's
 * events are rendered here; a mechanism's own events by the mechanism (`Mechanism.render`).
 * Writes only to its sink; never throws.
 */
export class Renderer {
  readonly #out: Sink;
  readonly #styles: Styles;
  readonly #tool: (name: string) => AnyTool | undefined;
  readonly #maxAttempts: number | undefined;
  /** The mechanisms that render their own events, asked in order. */
  readonly #renderers: readonly Mechanism[];
  /** Formats answers as Markdown for a terminal `#width` columns wide, when asked to. */
  readonly #markdown: MarkdownStream | undefined;
  readonly #width: number;
  /** The answer's line still being written, shown unformatted until it ends. */
  #partial = "";
  #columnBeforePartial: "blank" | "start" | "mid" = "start";
  /** Inputs of the calls under way, to show an edit's change once it is done. */
  readonly #inputs = new Map<string, unknown>();
  /** Where the cursor is: at the start of a line below a blank one, below text, or mid-line. */
  #column: "blank" | "start" | "mid" = "blank";
  #block: Block = "none";

  /**
   * `tool` finds a tool by name, to summarize its calls in one line; `maxAttempts` (when known)
   * completes the retry line's "attempt 2/10"; `mechanisms` render their own events (rein's own
   * mechanisms when not given: a harness's `mechanisms` add an embedder's).
   */
  constructor(
    out: Sink,
    styles: Styles,
    tool: (name: string) => AnyTool | undefined,
    options: {
      maxAttempts?: number;
      markdownWidth?: number;
      mechanisms?: readonly Mechanism[];
    } = {},
  ) {
    this.#out = out;
    this.#styles = styles;
    this.#tool = tool;
    this.#maxAttempts = options.maxAttempts;
    this.#renderers = (options.mechanisms ?? reinMechanisms({ workspace: "/" })).filter((m) =>
      m.render !== undefined
    );
    this.#width = options.markdownWidth ?? 0;
    this.#markdown = options.markdownWidth === undefined
      ? undefined
      : new MarkdownStream(styles, options.markdownWidth);
  }

  /** Streamed assistant text; the first delta of a reply starts a new block. */
  text(delta: string): void {
    delta = stripControls(delta);
    if (this.#block !== "text") {
      delta = delta.replace(/^\n+/, "");
      if (!delta) return;
      this.#startBlock("text");
    }
    if (!this.#markdown) return this.#write(delta);
    // Completed lines are shown formatted; the line still being written is shown as it comes,
    // then replaced by its formatted form once its end arrives.
    const done = this.#markdown.push(delta);
    const end = delta.lastIndexOf("\n");
    if (end === -1) {
      if (!this.#partial) this.#columnBeforePartial = this.#column;
      this.#partial += delta;
      return this.#write(delta);
    }
    this.#erasePartial();
    this.#write(done);
    this.#partial = end === -1 ? "" : delta.slice(end + 1);
    this.#columnBeforePartial = this.#column;
    this.#write(this.#partial);
  }

  /** The answer ended: show its last line formatted. */
  #flushMarkdown(): void {
    if (!this.#markdown) return;
    const rest = this.#markdown.flush();
    this.#erasePartial();
    this.#partial = "";
    this.#write(rest);
  }

  /** Take the unformatted line being written off the screen (it may span several rows). */
  #erasePartial(): void {
    if (!this.#partial) return;
    const rows = Math.max(1, Math.ceil(textWidth(this.#partial) / Math.max(1, this.#width)));
    this.#out.write(`\r${"\x1b[1A".repeat(rows - 1)}\x1b[0J`);
    this.#column = this.#columnBeforePartial;
    this.#partial = "";
  }

  /** Print a line of its own (a notice, an error), starting on a fresh line. */
  line(text: string): void {
    this.#lineStart();
    this.#write(`${text}\n`);
    if (this.#block === "none" || this.#block === "text") this.#block = "notice";
  }

  /** End the current block: what comes next is set off by a blank line. */
  gap(): void {
    this.#lineStart();
    if (this.#column === "start") this.#write("\n");
    this.#block = "none";
  }

  /** Someone else (the line editor) echoed the user's input and ended its line. */
  afterInput(): void {
    this.#column = "start";
    this.#block = "input";
  }

  /** Render one event of the session. */
  event(event: Envelope): void {
    const s = this.#styles;
    switch (event.type) {
      case "user.prompted":
        if (event.data.refused !== undefined) {
          this.line(s.yellow(`⏹ The prompt was blocked: ${event.data.refused}`));
          break;
        }
        this.#startBlock("input");
        this.#write(`${s.bold(`> ${event.data.text}`)}\n`);
        break;
      case "tool.requested":
        this.#inputs.set(event.data.callId, event.data.input);
        this.#startBlock("tool");
        this.#write(
          `${s.cyan("●")} ${s.bold(event.data.name)} ${
            this.#summarize(event.data.name, event.data.input)
          }\n`,
        );
        break;
      case "tool.completed": {
        this.line(`  ${s.dim("⎿")}  ${this.#result(event.data)}`);
        // An image the model saw (an MCP tool's) is named on a line of its own.
        for (const block of event.data.blocks ?? []) {
          if (block.type === "image") this.line(`     ${s.dim(resultBlockText(block))}`);
        }
        const input = this.#inputs.get(event.data.callId);
        this.#inputs.delete(event.data.callId);
        if (!event.data.isError && event.data.outcome === undefined) {
          for (const line of changeLines(event.data.name, input)) {
            const paint = line.startsWith("-") ? s.red : line.startsWith("+") ? s.green : s.dim;
            this.line(`     ${paint(line)}`);
          }
        }
        break;
      }
      case "model.failed": {
        // A failure that is not retried ends the turn, and turn.ended reports it.
        const { retryInMs, attempt, kind, status } = event.data;
        if (retryInMs === null) break;
        const max = this.#maxAttempts === undefined ? "" : `/${this.#maxAttempts}`;
        const what = `${FAILURE_WORDS[kind]}${status === null ? "" : ` (${status})`}`;
        const wait = `${(retryInMs / 1000).toFixed(1)}s`;
        if (this.#block !== "notice") this.#startBlock("notice");
        this.line(
          s.yellow(`${what} — retrying in ${wait}, attempt ${attempt + 1}${max} (Ctrl-C stops)`),
        );
        break;
      }
      case "model.responded": {
        this.#flushMarkdown();
        this.#lineStart();
        const thought = event.data.content.filter((block) => block.type === "thinking")
          .map((block) => block.type === "thinking" ? block.thinking : "").join(" ");
        const words = thought.split(/\s+/).filter(Boolean).length;
        if (words > 0) this.line(s.dim(`✻ thought for ${words} ${words === 1 ? "word" : "words"}`));
        break;
      }
      case "turn.ended":
        this.#turnEnded(event.data);
        break;
      case "session.resumed":
        this.line(s.dim(`— resumed (${event.data.how})`));
        break;
      case "model.switched": {
        const { from, model, reason } = event.data;
        if (reason === "fallback") {
          this.line(s.yellow(`${from} is overloaded: using ${model} for the rest of this turn`));
        } else if (from === model) {
          this.line(s.dim(`— output limit ${event.data.maxTokens.toLocaleString("en-US")} tokens`));
        } else this.line(s.dim(`— model ${from} → ${model}`));
        break;
      }
      case "model.discarded":
        this.line(s.dim("— the answer hit the output limit: asking again with the full limit"));
        break;
      case "model.continued":
        this.line(s.dim("— the answer hit the output limit: asking it to go on"));
        break;
      case "compaction.started":
        // A compaction ends the answer shown before it.
        this.#flushMarkdown();
        this.#lineStart();
        this.#mechanismLines(event);
        break;
      default:
        this.#mechanismLines(event);
    }
  }

  /** The lines the mechanism whose event this is renders for it, if any. */
  #mechanismLines(event: Envelope): void {
    for (const mechanism of this.#renderers) {
      const lines = mechanism.render?.(event);
      if (lines === undefined) continue;
      for (const line of lines) this.line(paintLine(line, this.#styles));
      return;
    }
  }

  #result(data: { name: string; content: string; isError: boolean; outcome?: string }): string {
    const s = this.#styles;
    if (data.outcome === "interrupted") {
      return s.yellow(`${data.name}: interrupted, outcome unknown`);
    }
    if (data.outcome === "cancelled") return s.yellow("Cancelled");
    const { head, more, last } = resultSummary(data.content);
    const rest = more > 0 ? s.dim(` … +${more} ${more === 1 ? "line" : "lines"}`) : "";
    if (!data.isError) return `${head}${rest}`;
    // The verdict of a failure (an exit code, a timeout) is usually its last line.
    return `${s.red(last === null ? head : `${head} · ${last}`)}${rest}`;
  }

  #turnEnded(data: { reason: string; message?: string }) {
    const s = this.#styles;
    let notice: string;
    if (data.reason === "failed") notice = s.red(`✗ ${data.message ?? "Failed"}`);
    else if (data.reason === "cancelled") notice = s.yellow("⏹ Cancelled");
    else if (data.reason === "max_turns") {
      notice = s.yellow(`⏹ ${data.message ?? "Stopped at --max-turns"}`);
    } else if (data.reason === "max_budget") {
      notice = s.yellow(`⏹ ${data.message ?? "Stopped at --max-budget-usd"}`);
    } else if (data.reason === "interrupted") {
      notice = s.yellow("⏹ The previous run was interrupted");
    } else return;
    if (this.#block === "none" || this.#block === "input") this.#startBlock("notice");
    this.line(notice);
  }

  /**
   * An event of a subagent (a `task` call's child): each tool call it makes, a line each,
   * indented under the task call; the rest of its work stays in the log.
   */
  childEvent(event: Envelope): void {
    if (event.type !== "tool.requested") return;
    const s = this.#styles;
    const summary = this.#summarize(event.data.name, event.data.input);
    this.line(`     ${s.dim("↳")} ${event.data.name} ${s.dim(summary)}`);
  }

  /** A call as the transcript shows it, with the change it would make (for the permission question). */
  callLines(name: string, input: unknown): string[] {
    const s = this.#styles;
    const paint = (line: string) =>
      line.startsWith("-") ? s.red(line) : line.startsWith("+") ? s.green(line) : s.dim(line);
    return [
      `${s.cyan("●")} ${s.bold(name)} ${this.#summarize(name, input)}`,
      ...changeLines(name, input).map((line) => `     ${paint(line)}`),
    ];
  }

  #summarize(name: string, input: unknown): string {
    const tool = this.#tool(name);
    let text: string;
    try {
      text = tool ? tool.summarize(input) : JSON.stringify(input);
    } catch {
      text = JSON.stringify(input);
    }
    return truncate(stripControls(text ?? "").split("\n")[0] ?? "");
  }

  #startBlock(block: Block) {
    if (this.#block !== "none" || this.#column !== "blank") this.gap();
    this.#block = block;
  }

  #lineStart() {
    if (this.#column === "mid") this.#write("\n");
  }

  #write(text: string) {
    if (!text) return;
    this.#out.write(text);
    if (!text.endsWith("\n")) this.#column = "mid";
    else if (text.endsWith("\n\n") || (text === "\n" && this.#column !== "mid")) {
      this.#column = "blank";
    } else this.#column = "start";
  }
}

/**
 * A tool result in brief: its first non-blank line (cut at 100 characters), how many lines
 * follow it, and the last non-blank line when it is another one. Pure.
 */
export function resultSummary(
  content: string,
): { head: string; more: number; last: string | null } {
  const lines = stripControls(content).replace(/\s+$/, "").split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first === -1) return { head: "(No output)", more: 0, last: null };
  const more = lines.length - first - 1;
  return {
    head: truncate(lines[first]?.trim() ?? ""),
    more,
    last: more > 0 ? truncate(lines.at(-1)?.trim() ?? "") : null,
  };
}

/** Lines of a change shown after a file edit or write, at most this many. */
const CHANGE_LINES = 12;

/**
 * What a successful edit_file or write_file changed, as diff lines: the replaced text as `- `
 * lines and its replacement as `+ ` lines (a new file's first lines as `+ `), cut at
 * {@link CHANGE_LINES} with a count of the rest. Empty for other tools. Pure.
 */
export function changeLines(tool: string, input: unknown): string[] {
  const fields = (typeof input === "object" && input !== null ? input : {}) as Record<
    string,
    unknown
  >;
  const text = (value: unknown) => typeof value === "string" ? stripControls(value) : "";
  const split = (value: string) => value === "" ? [] : value.replace(/\n$/, "").split("\n");
  let lines: string[];
  if (tool === "edit_file") {
    lines = [
      ...split(text(fields.old_string)).map((line) => `- ${line}`),
      ...split(text(fields.new_string)).map((line) => `+ ${line}`),
    ];
  } else if (tool === "write_file") {
    lines = split(text(fields.content)).map((line) => `+ ${line}`);
  } else return [];
  if (lines.length <= CHANGE_LINES) return lines.map(truncate);
  const rest = lines.length - CHANGE_LINES;
  return [
    ...lines.slice(0, CHANGE_LINES).map(truncate),
    `… ${rest} more ${rest === 1 ? "line" : "lines"}`,
  ];
}

function truncate(line: string): string {
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** How a retried failure is named on the retry line. */
const FAILURE_WORDS: Record<ModelFailureKind, string> = {
  rate_limited: "rate limited",
  overloaded: "overloaded",
  server_error: "server error",
  stream_cut: "stream cut",
  connection: "connection failed",
  prompt_too_long: "prompt too long",
  client_error: "request refused",
  unknown: "model call failed",
};
