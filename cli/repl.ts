import { createInterface } from "node:readline";
import process from "node:process";
import { AgentSession } from "../core/session.ts";
import type { TurnResult } from "../core/turn.ts";
import type { CommandIo } from "./io.ts";
import { useColor } from "./io.ts";
import { Renderer } from "./render.ts";
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
 * cancels the running turn (recorded as an event), Ctrl-D or /exit leaves. Returns the exit code.
 */
export async function runRepl(
  runtime: Runtime,
  chosen: ChosenSession,
  options: { maxTurns: number | null; model: string; maxTokens: number; newId: () => string },
  io: CommandIo,
): Promise<number> {
  const styles = createStyles(useColor(io.stdoutIsTerminal));
  const renderer = new Renderer(io.stdout, styles, runtime.tools);
  let session = chosen.session;
  runtime.deps.onText = (delta) => renderer.text(delta);
  const unsubscribe = runtime.store.subscribe((event) => {
    if (event.session === session.id && event.type !== "user.prompted") renderer.event(event);
  });
  const reader = new LineReader(io.stdinIsTerminal);
  let cancel: (() => void) | null = null;
  const interrupt = () => {
    if (cancel) cancel();
    else {
      renderer.line(styles.dim("(Ctrl-D or /exit to leave)"));
      reader.reprompt();
    }
  };
  reader.onInterrupt = interrupt;
  Deno.addSignalListener("SIGINT", interrupt);
  const run = async (work: (signal: AbortSignal) => Promise<TurnResult | null>) => {
    const controller = new AbortController();
    cancel = () => {
      if (!controller.signal.aborted) renderer.line(styles.dim("Cancelling…"));
      controller.abort();
    };
    try {
      return await work(controller.signal);
    } finally {
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
      const line = await reader.next(styles.bold("> "));
      if (line === null) break;
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
 * One readline interface for the whole session (a new one per line would drop piped input it
 * had buffered). Ctrl-C reaches us as readline's SIGINT in a terminal (raw mode) and as a real
 * signal otherwise; both go to `onInterrupt`.
 */
class LineReader {
  readonly #rl: ReturnType<typeof createInterface>;
  readonly #lines: string[] = [];
  #waiting: ((line: string | null) => void) | null = null;
  #closed = false;
  onInterrupt: () => void = () => {};

  constructor(terminal: boolean) {
    this.#rl = createInterface({ input: process.stdin, output: process.stdout, terminal });
    this.#rl.on("line", (line) => this.#deliver(line));
    this.#rl.on("close", () => {
      this.#closed = true;
      this.#deliver(null);
    });
    this.#rl.on("SIGINT", () => this.onInterrupt());
  }

  /** The next line, after showing `prompt`; null at end of input (Ctrl-D). */
  next(prompt: string): Promise<string | null> {
    const queued = this.#lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.#closed) return Promise.resolve(null);
    this.#rl.setPrompt(prompt);
    this.#rl.prompt();
    return new Promise((resolve) => this.#waiting = resolve);
  }

  /** Clear what was typed at the prompt and show it again. */
  reprompt(): void {
    this.#rl.write(null, { ctrl: true, name: "u" });
    this.#rl.prompt();
  }

  close(): void {
    this.#rl.close();
  }

  #deliver(line: string | null) {
    const waiting = this.#waiting;
    this.#waiting = null;
    if (waiting) waiting(line);
    else if (line !== null) this.#lines.push(line);
  }
}
