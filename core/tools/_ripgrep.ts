/** What {@link ripgrepLines} found: matching line indexes, or why ripgrep could not search. */
export type RipgrepResult =
  | { kind: "matched"; lines: number[] }
  /** ripgrep refused the pattern (Rust regex syntax lacks look-around and backreferences). */
  | { kind: "rejected"; message: string }
  /** No ripgrep at the given command. */
  | { kind: "missing" };

/** Thrown when the signal aborts a search; the caller tells a cancel from a timeout. */
export class SearchStopped extends Error {
  constructor() {
    super("Search stopped");
    this.name = "SearchStopped";
  }
}

/**
 * Finds which of `lines` match `pattern` with ripgrep, whose regex engine runs in linear time.
 * ripgrep opens no file: the lines (read by the caller through verified handles) go to its
 * stdin, so it cannot be led outside the workspace, and no config file or environment variable
 * of the repository changes its flags (`--no-config`). Lines are 0-based and ascending. The
 * process is killed when `signal` aborts (then throws {@link SearchStopped}).
 */
export async function ripgrepLines(
  command: string,
  pattern: string,
  ignoreCase: boolean,
  lines: readonly string[],
  signal: AbortSignal,
): Promise<RipgrepResult> {
  if (signal.aborted) throw new SearchStopped();
  const args = [
    "--no-config",
    "--text",
    "--line-number",
    "--no-heading",
    "--no-filename",
    "--color=never",
    // Each matching line prints as "12:[Omitted long matching line]": only its number is needed.
    "--max-columns=1",
    "--threads=1",
    ...(ignoreCase ? ["--ignore-case"] : []),
    `--regexp=${pattern}`,
    "-",
  ];
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(command, {
      args,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { LC_ALL: "C.UTF-8" },
      clearEnv: true,
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "missing" };
    throw error;
  }
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  };
  signal.addEventListener("abort", kill, { once: true });
  try {
    const input = lines.length === 0 ? "" : `${lines.join("\n")}\n`;
    const [output] = await Promise.all([child.output(), feed(child.stdin, input)]);
    if (signal.aborted) throw new SearchStopped();
    if (output.code === 0 || output.code === 1) {
      return { kind: "matched", lines: lineNumbers(new TextDecoder().decode(output.stdout)) };
    }
    return { kind: "rejected", message: new TextDecoder().decode(output.stderr).trim() };
  } finally {
    signal.removeEventListener("abort", kill);
  }
}

async function feed(stdin: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    // ripgrep exited early (killed, or it refused the pattern); its exit code tells why.
  }
}

function lineNumbers(stdout: string): number[] {
  const found: number[] = [];
  for (const line of stdout.split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) found.push(Number(line.slice(0, colon)) - 1);
  }
  return found;
}
