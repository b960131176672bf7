import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { killGroup } from "../tools/kill_group.ts";
import { spawnInOwnSession } from "../tools/own_session_command.ts";

/** The longest line (one JSON-RPC message) a server may send: past it the server is closed. */
const MAX_LINE_CHARS = 64 * 1024 * 1024;
/** How much of a server's stderr is kept, for the reason it failed. */
const STDERR_TAIL = 2_000;

/**
 * The MCP stdio transport, run as rein runs its other children: the server leads a session and
 * process group of its own (`spawnInOwnSession`), so closing it kills everything it started
 * (`npx` and the node under it), and Ctrl-C in rein's terminal does not reach it. The last lines
 * of its stderr are kept for the reason it failed.
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #child: Deno.ChildProcess | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #stderr = "";
  #closed = false;

  constructor(
    private readonly command: string,
    private readonly options: {
      args: string[];
      env: Record<string, string>;
      cwd: string;
      /** The server's process, started already (`spawnStdioServer`): taken over, not started. */
      child?: Deno.ChildProcess | undefined;
    },
  ) {}

  /** The end of what the server wrote to stderr. */
  get stderr(): string {
    return this.#stderr.trim();
  }

  start(): Promise<void> {
    const child = this.options.child ?? spawnInOwnSession(this.command, {
      args: this.options.args,
      env: this.options.env,
      clearEnv: true,
      cwd: this.options.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    });
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#readStdout(child.stdout);
    this.#readStderr(child.stderr);
    child.status.then(() => this.#ended(), () => this.#ended());
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#closed) throw new Error("The MCP server's stdin is closed");
    await this.#writer.write(new TextEncoder().encode(serializeMessage(message)));
  }

  async close(): Promise<void> {
    // A process given and not started on yet (a connection given up before it began) too.
    const child = this.#child ?? this.options.child;
    if (!child) return;
    await this.#writer?.close().catch(() => {});
    await killGroup(child.pid);
    await child.status.catch(() => {});
    this.#ended();
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  async #readStdout(stdout: ReadableStream<Uint8Array>): Promise<void> {
    // The pieces of the line not ended yet: a long message (megabytes) is joined once, not
    // searched again with each chunk.
    let pending: string[] = [];
    let pendingLength = 0;
    try {
      for await (const text of stdout.pipeThrough(new TextDecoderStream())) {
        let start = 0;
        let newline: number;
        while ((newline = text.indexOf("\n", start)) !== -1) {
          pending.push(text.slice(start, newline));
          const line = pending.join("").replace(/\r$/, "");
          pending = [];
          pendingLength = 0;
          start = newline + 1;
          if (line.trim() !== "") this.#deliver(line);
        }
        if (start < text.length) {
          pending.push(text.slice(start));
          pendingLength += text.length - start;
        }
        if (pendingLength > MAX_LINE_CHARS) {
          this.onerror?.(
            new Error(`The MCP server sent a message over ${MAX_LINE_CHARS} characters`),
          );
          pending = [];
          await this.close();
          return;
        }
      }
    } catch (error) {
      if (!this.#closed) this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      // A line that is not JSON-RPC (a server's stray log on stdout) is kept as stderr is.
      this.#keepStderr(`${line.slice(0, 200)}\n`);
      return;
    }
    this.onmessage?.(message);
  }

  async #readStderr(stderr: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const text of stderr.pipeThrough(new TextDecoderStream())) this.#keepStderr(text);
    } catch {
      // The pipe closed with the process.
    }
  }

  #keepStderr(text: string): void {
    this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL);
  }
}
