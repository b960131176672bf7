/**
 * The rein CLI as a running child process that a test can kill, for crash tests. Runs to
 * completion go through `runCli` in `_cli.ts`; this one uses the same command line and the same
 * clean environment. Private to tests/.
 *
 * @module
 */

import { cliEntry } from "./_cli.ts";

/** How a CLI process ended and what it printed. */
export interface CliOutput {
  code: number;
  /** The signal that ended it, e.g. `"SIGKILL"`; null when it exited by itself. */
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
}

/**
 * `deno run` of rein with all permissions (`cliEntry()`: the cached bundle when fresh, else
 * cli/main.ts) started at once, with only PATH, HOME, NO_COLOR and `env` in its environment (no
 * credential of the machine leaks in). Disposing it kills it if it still runs.
 */
export class CliProcess implements AsyncDisposable {
  readonly #child: Deno.ChildProcess;
  #running = true;
  /** Resolves once the process has ended and both pipes are read. */
  readonly output: Promise<CliOutput>;

  constructor(args: readonly string[], env: Readonly<Record<string, string>> = {}) {
    this.#child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...cliEntry(), ...args],
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: Deno.env.get("HOME") ?? "/tmp",
        NO_COLOR: "1",
        ...env,
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const decoder = new TextDecoder();
    this.output = this.#child.output().then((out) => ({
      code: out.code,
      signal: out.signal,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    }));
    void this.#child.status.then(() => this.#running = false);
  }

  /** False once the process has ended. */
  get running(): boolean {
    return this.#running;
  }

  /** Sends SIGKILL unless the process has already ended, then waits for its end. */
  async kill(): Promise<CliOutput> {
    try {
      this.#child.kill("SIGKILL");
    } catch (error) {
      // Deno throws a TypeError when the process has already ended.
      if (!(error instanceof TypeError)) throw error;
    }
    return await this.output;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.kill();
  }
}
