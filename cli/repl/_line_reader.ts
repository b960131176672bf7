import { createInterface } from "node:readline";
import process from "node:process";
import type { Sink } from "../render/render.ts";

/**
 * Reads prompts with node's readline: one interface for the whole session (a new one per line
 * would drop piped input it had buffered). In a terminal, readline keeps the keyboard in raw mode
 * the whole time, so Ctrl-C arrives as a key (readline's SIGINT) and never as a signal that would
 * also hit a wrapping shell; a real SIGINT (input piped) goes to `onInterrupt` too. Between
 * prompts readline's drawing is muted so keys typed during a turn do not garble the output; the
 * text is kept and shown at the next prompt. Lines readline did not draw are echoed to `echo`.
 */
/** Prompts kept for Up/Down. */
export const HISTORY_SIZE = 500;

export class LineReader {
  readonly #rl: ReturnType<typeof createInterface>;
  readonly #terminal: boolean;
  readonly #echo: Sink;
  readonly #output = { muted: true };
  readonly #lines: string[] = [];
  #prompt = "";
  #waiting: ((line: string | null) => void) | null = null;
  #closed = false;
  onInterrupt: () => void = () => {};

  /** `history` (newest first) fills Up/Down in a terminal. */
  constructor(terminal: boolean, echo: Sink, history: string[] = []) {
    this.#terminal = terminal;
    this.#echo = echo;
    this.#rl = terminal
      ? createInterface({
        input: process.stdin,
        output: muteable(this.#output),
        terminal,
        history,
        historySize: HISTORY_SIZE,
        removeHistoryDuplicates: true,
      })
      : createInterface({ input: process.stdin, terminal });
    this.#rl.on("line", (line) => this.#deliver(line));
    this.#rl.on("close", () => {
      const byUser = !this.#closed;
      this.#closed = true;
      if (this.#waiting && this.#terminal) this.#echo.write("\n");
      // Ctrl-D during a turn: readline has given the keyboard back (cooked mode), so leave now.
      else if (this.#terminal && byUser) this.onInterrupt();
      this.#deliver(null);
    });
    this.#rl.on("SIGINT", () => this.onInterrupt());
  }

  /** The next line, after showing `prompt`; null at end of input (Ctrl-D). */
  next(prompt: string): Promise<string | null> {
    this.#prompt = prompt;
    const queued = this.#lines.shift();
    if (queued !== undefined) {
      this.#echo.write(`${prompt}${queued}\n`);
      return Promise.resolve(queued);
    }
    if (this.#closed) return Promise.resolve(null);
    if (this.#terminal) {
      // Typed during the turn: clear it while muted (readline forgets its rows), then retype it.
      const typed = this.#rl.line;
      if (typed) this.#clearInput();
      this.#output.muted = false;
      this.#rl.setPrompt(prompt);
      this.#rl.prompt();
      if (typed) this.#rl.write(typed);
    }
    return new Promise((resolve) => this.#waiting = resolve);
  }

  /**
   * A line typed in answer to a question asked during a turn (a permission question), or null
   * when `signal` aborts first (Ctrl-C cancels the turn) or input ends.
   */
  question(prompt: string, signal: AbortSignal): Promise<string | null> {
    if (signal.aborted) return Promise.resolve(null);
    const answer = this.next(prompt);
    const onAbort = () => {
      const waiting = this.#waiting;
      if (!waiting) return;
      this.#waiting = null;
      if (this.#terminal) {
        this.#clearInput();
        this.#output.muted = true;
        this.#echo.write("\n");
      }
      waiting(null);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    return answer.finally(() => signal.removeEventListener("abort", onAbort));
  }

  /** True while a prompt waits for the person's line. */
  get waiting(): boolean {
    return this.#waiting !== null;
  }

  /**
   * Show output that comes while a prompt waits (a background job ended while the person was
   * idle): `write` runs with the prompt's line cleared, then the prompt and what was typed so
   * far are drawn again below it.
   */
  showAbove(write: () => void): void {
    if (!this.#waiting || !this.#terminal) return write();
    this.#echo.write("\r\x1b[2K");
    write();
    this.#rl.prompt(true);
  }

  /** Ctrl-C at the prompt: clear what was typed, or if nothing was, show `hint` and prompt again. */
  interruptInput(hint: string): void {
    if (!this.#waiting) return;
    if (this.#terminal && this.#rl.line) return this.#clearInput();
    this.#echo.write(this.#terminal ? `\n${hint}\n` : `${hint}\n`);
    if (this.#terminal) this.#rl.prompt();
  }

  /**
   * Stop waiting for the line at the prompt (a scheduled prompt runs first): the prompt's line is
   * cleared for what runs instead, what was typed is kept and shown again at the next prompt, and
   * a line entered meanwhile waits for it.
   */
  pause(): void {
    if (!this.#waiting) return;
    this.#waiting = null;
    if (this.#terminal) {
      this.#output.muted = true;
      this.#echo.write("\r\x1b[2K");
    }
  }

  /** Forget lines entered while a turn was running. */
  discardQueued(): void {
    this.#lines.length = 0;
  }

  close(): void {
    this.#closed = true;
    this.#rl.close();
  }

  #clearInput() {
    this.#rl.write(null, { ctrl: true, name: "e" });
    this.#rl.write(null, { ctrl: true, name: "u" });
  }

  #deliver(line: string | null) {
    const waiting = this.#waiting;
    this.#waiting = null;
    if (!waiting) {
      if (line !== null) this.#lines.push(line);
      return;
    }
    if (this.#terminal) this.#output.muted = true;
    else if (line !== null) this.#echo.write(`${this.#prompt}${line}\n`);
    waiting(line);
  }
}

/** process.stdout, except that writes are dropped while `state.muted` is set. */
function muteable(state: { muted: boolean }): NodeJS.WritableStream {
  return new Proxy(process.stdout, {
    get(target, key) {
      if (key === "write" && state.muted) {
        return (...args: unknown[]) => {
          const callback = args.findLast((arg) => typeof arg === "function");
          if (typeof callback === "function") callback();
          return true;
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
