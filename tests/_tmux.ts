/**
 * Drives a command in a real terminal: a detached tmux session on a socket of its own, keys sent
 * with `send-keys`, the screen read with `capture-pane`. For tests of the interactive session.
 *
 * @module
 */

/** What the screen showed, with where the cursor was. */
export interface Screen {
  /** Scrollback and visible rows, wrapped lines joined, trailing spaces and blank rows dropped. */
  text: string;
  /** The row the cursor is on, as captured (no trailing spaces). */
  cursorLine: string;
  cursorX: number;
}

/** A command running in a tmux pane. Dispose it (or `close()`) to kill the tmux server. */
export class Terminal implements AsyncDisposable {
  readonly #socket: string;
  /** The server's socket file, which kill-server leaves behind. */
  #socketPath = "";

  private constructor(socket: string) {
    this.#socket = socket;
  }

  /** Start the shell command `command` in a `width`×`height` terminal. Throws if tmux fails. */
  static async start(command: string, size = { width: 160, height: 50 }): Promise<Terminal> {
    const socket = `rein-test-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
    const terminal = new Terminal(socket);
    const width = String(size.width);
    const height = String(size.height);
    const socketPath = await terminal.#tmux([
      ...["new-session", "-d", "-x", width, "-y", height, command, ";"],
      ...["display-message", "-p", "#{socket_path}"],
    ]);
    terminal.#socketPath = socketPath.trim();
    return terminal;
  }

  /** Type `text` literally (no key names). */
  async type(text: string): Promise<void> {
    await this.#tmux(["send-keys", "-l", text]);
  }

  /** Press keys by tmux name: `Enter`, `C-c`, `C-d`. */
  async press(...keys: string[]): Promise<void> {
    await this.#tmux(["send-keys", ...keys]);
  }

  /** Read the screen once: one tmux call, so the text and the cursor are from the same moment. */
  async screen(): Promise<Screen> {
    const marker = "\u0001cursor";
    const out = await this.#tmux([
      ...["capture-pane", "-p", "-J", "-S", "-", ";"],
      ...["display-message", "-p", `${marker} #{cursor_x} #{cursor_y}`, ";"],
      ...["capture-pane", "-p"],
    ]);
    const at = out.lastIndexOf(`${marker} `);
    const end = out.indexOf("\n", at);
    const [x, y] = out.slice(at + marker.length + 1, end).split(" ").map(Number);
    const trimmed = (text: string) => text.split("\n").map((line) => line.trimEnd());
    return {
      text: trimmed(out.slice(0, at)).join("\n").replace(/\n+$/, ""),
      cursorLine: trimmed(out.slice(end + 1))[y ?? 0] ?? "",
      cursorX: x ?? 0,
    };
  }

  /**
   * Poll the screen until `accept` holds, and return that screen. Throws with the last screen
   * after `timeoutMs`.
   */
  async waitFor(
    what: string,
    accept: (screen: Screen) => boolean,
    timeoutMs = 15_000,
  ): Promise<Screen> {
    const deadline = Date.now() + timeoutMs;
    let last: Screen | undefined;
    let failure = "";
    while (Date.now() < deadline) {
      try {
        last = await this.screen();
      } catch (error) {
        // The server is gone once the command has exited; report it only if the wait times out.
        failure = `\n(last capture failed: ${error instanceof Error ? error.message : error})`;
      }
      if (last && accept(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    throw new Error(
      `Timed out after ${timeoutMs} ms waiting for ${what}; screen:\n${last?.text}${failure}`,
    );
  }

  /** Kill the tmux server (and with it the command) and remove its socket. Idempotent. */
  async close(): Promise<void> {
    await new Deno.Command("tmux", { args: ["-L", this.#socket, "kill-server"], stderr: "null" })
      .output();
    if (this.#socketPath) await Deno.remove(this.#socketPath).catch(() => {});
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #tmux(args: string[]): Promise<string> {
    const result = await new Deno.Command("tmux", { args: ["-L", this.#socket, ...args] }).output();
    if (!result.success) {
      const stderr = new TextDecoder().decode(result.stderr).trim();
      throw new Error(`tmux ${args[0]} failed: ${stderr}`);
    }
    return new TextDecoder().decode(result.stdout);
  }
}

/** Quote a value for `sh`. Pure. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
