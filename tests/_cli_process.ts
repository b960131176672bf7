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

/** What else a {@link CliProcess} does while it runs. */
export interface CliProcessOptions {
  /**
   * Called with each line of its stderr (without the `\n`) as it comes, one call at a time: the
   * next line waits until the promise returned for this one settles. A last line without a
   * `\n` is not passed. Its stderr is still all in {@link CliOutput.stderr}.
   */
  onStderrLine?: (line: string) => Promise<void> | void;
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

  constructor(
    args: readonly string[],
    env: Readonly<Record<string, string>> = {},
    options: CliProcessOptions = {},
  ) {
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
    const { onStderrLine } = options;
    this.output = onStderrLine === undefined
      ? this.#child.output().then((out) => ({
        code: out.code,
        signal: out.signal,
        stdout: decoder.decode(out.stdout),
        stderr: decoder.decode(out.stderr),
      }))
      : this.#watchingStderr(onStderrLine);
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

  /** Its output, its stderr read line by line into `onLine` as it comes. */
  async #watchingStderr(onLine: (line: string) => Promise<void> | void): Promise<CliOutput> {
    const stdout = new Response(this.#child.stdout).text();
    let stderr = "";
    let partial = "";
    for await (const chunk of this.#child.stderr.pipeThrough(new TextDecoderStream())) {
      stderr += chunk;
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) await onLine(line);
    }
    const status = await this.#child.status;
    return { code: status.code, signal: status.signal, stdout: await stdout, stderr };
  }
}
