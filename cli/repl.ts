import { createInterface } from "node:readline";
import process from "node:process";
import { AgentSession } from "../core/session.ts";
import type { TurnResult } from "../core/turn.ts";
import type { CommandIo } from "./io.ts";
import { useColor } from "./io.ts";
import { Renderer, type Sink } from "./render.ts";
import type { Runtime } from "./runtime.ts";
import type { ChosenSession } from "./session_choice.ts";
import { createStyles } from "./style.ts";

const HELP = [
  "Commands:",
  "  /help      show this help",
  "  /session   show the session id and the log file",
  "  /new       start a new session in this workspace",
  "  /exit      leave (Ctrl-D also leaves)",
  "Ctrl-C cancels the running turn; the session stays usable.",
].join("\n");

/**
 * The interactive session: read a prompt, run the turn with streamed output, repeat. Ctrl-C
 * cancels the running turn (recorded as an event) or clears the prompt; Ctrl-D or /exit leaves
 * (Ctrl-D during a turn cancels it first). Returns the exit code.
 */
export async function runRepl(
  runtime: Runtime,
  chosen: ChosenSession,
  options: { maxTurns: number | null; model: string; maxTokens: number; newId: () => string },
  io: CommandIo,
): Promise<number> {
  const styles = createStyles(useColor(io.stdoutIsTerminal));
  const working = new WorkingLine(
    io.stdout,
    io.stdoutIsTerminal,
    (seconds) => styles.dim(`✻ Working… ${seconds}s · Ctrl-C to cancel`),
  );
  const renderer = new Renderer(working, styles, runtime.tools);
  let session = chosen.session;
  runtime.deps.onText = (delta) => renderer.text(delta);
  const unsubscribe = runtime.store.subscribe((event) => {
    if (event.session === session.id && event.type !== "user.prompted") renderer.event(event);
  });
  const reader = new LineReader(io.stdinIsTerminal, working);
  let cancel: (() => void) | null = null;
  const interrupt = () => {
    if (cancel) cancel();
    else reader.interruptInput(styles.dim("To leave, press Ctrl-D or type /exit"));
  };
  reader.onInterrupt = interrupt;
  Deno.addSignalListener("SIGINT", interrupt);
  const run = async (work: (signal: AbortSignal) => Promise<TurnResult | null>) => {
    const controller = new AbortController();
    cancel = () => {
      reader.discardQueued();
      controller.abort();
    };
    working.start();
    try {
      return await work(controller.signal);
    } finally {
      working.stop();
      cancel = null;
    }
  };
  renderer.line(
    `${styles.bold("rein")} ${styles.dim(`· ${session.view.model} · ${runtime.workspace}`)}\n` +
      styles.dim(`session ${session.id} · /help for commands · Ctrl-D or /exit to leave`),
  );
  try {
    if (chosen.reopened) {
      if (session.hasUnfinishedWork) renderer.line(styles.dim("Continuing the unfinished turn…"));
      await run((signal) =>
        session.resume(chosen.reopened ?? "resume", undefined, {
          signal,
          maxTurns: options.maxTurns,
        })
      );
    }
    while (true) {
      renderer.gap();
      const line = await reader.next(styles.bold("> "));
      if (line === null) break;
      renderer.afterInput();
      const input = line.trim();
      if (!input) continue;
      if (input.startsWith("/")) {
        const command = input.split(/\s+/)[0];
        if (command === "/exit" || command === "/quit") break;
        if (command === "/help") renderer.line(HELP);
        else if (command === "/session") {
          renderer.line(`session ${session.id}\nlog     ${runtime.logPath}`);
        } else if (command === "/new") {
          session = await AgentSession.start(runtime.deps, {
            id: options.newId(),
            model: options.model,
            workspace: runtime.workspace,
            maxTokens: options.maxTokens,
            platform: `${Deno.build.os} ${Deno.build.arch}`,
          });
          renderer.line(styles.dim(`new session ${session.id}`));
        } else renderer.line(styles.red(`Unknown command "${command}". Type /help for the list`));
        continue;
      }
      await run((signal) => session.prompt(input, { signal, maxTurns: options.maxTurns }));
    }
  } finally {
    Deno.removeSignalListener("SIGINT", interrupt);
    reader.close();
    unsubscribe();
  }
  return 0;
}

/**
 * Reads prompts with node's readline: one interface for the whole session (a new one per line
 * would drop piped input it had buffered). In a terminal, readline keeps the keyboard in raw mode
 * the whole time, so Ctrl-C arrives as a key (readline's SIGINT) and never as a signal that would
 * also hit a wrapping shell; a real SIGINT (input piped) goes to `onInterrupt` too. Between
 * prompts readline's drawing is muted so keys typed during a turn do not garble the output; the
 * text is kept and shown at the next prompt. Lines readline did not draw are echoed to `echo`.
 */
class LineReader {
  readonly #rl: ReturnType<typeof createInterface>;
  readonly #terminal: boolean;
  readonly #echo: Sink;
  readonly #output = { muted: true };
  readonly #lines: string[] = [];
  #prompt = "";
  #waiting: ((line: string | null) => void) | null = null;
  #closed = false;
  onInterrupt: () => void = () => {};

  constructor(terminal: boolean, echo: Sink) {
    this.#terminal = terminal;
    this.#echo = echo;
    this.#rl = terminal
      ? createInterface({ input: process.stdin, output: muteable(this.#output), terminal })
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

  /** Ctrl-C at the prompt: clear what was typed, or if nothing was, show `hint` and prompt again. */
  interruptInput(hint: string): void {
    if (!this.#waiting) return;
    if (this.#terminal && this.#rl.line) return this.#clearInput();
    this.#echo.write(this.#terminal ? `\n${hint}\n` : `${hint}\n`);
    if (this.#terminal) this.#rl.prompt();
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

/**
 * A sink that, while a turn runs in a terminal, shows a "working" line with the elapsed seconds
 * whenever the output rests at the start of a line; it is erased before anything else is written.
 */
class WorkingLine implements Sink {
  readonly #out: Sink;
  readonly #enabled: boolean;
  readonly #label: (seconds: number) => string;
  #timer: ReturnType<typeof setInterval> | undefined;
  #started = 0;
  #shown: string | null = null;
  #atLineStart = true;

  constructor(out: Sink, enabled: boolean, label: (seconds: number) => string) {
    this.#out = out;
    this.#enabled = enabled;
    this.#label = label;
  }

  write(text: string): void {
    if (!text) return;
    this.#erase();
    this.#out.write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  start(): void {
    if (!this.#enabled) return;
    this.#started = Date.now();
    this.#timer = setInterval(() => this.#draw(), 250);
    this.#draw();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#erase();
  }

  #draw() {
    if (this.#timer === undefined || !this.#atLineStart) return;
    const label = this.#label(Math.floor((Date.now() - this.#started) / 1000));
    if (label === this.#shown) return;
    this.#out.write(`\r\x1b[2K${label}`);
    this.#shown = label;
  }

  #erase() {
    if (this.#shown !== null) this.#out.write("\r\x1b[2K");
    this.#shown = null;
  }
}
