import type { CommandIo } from "../io.ts";

/** What a command printed, and its exit code (or the message of what it threw). */
export interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a CLI command (`rein sessions`, `rein state`, …) with its output kept instead of printed:
 * the MCP server's stdout is the protocol's channel. A thrown error is the command's failure
 * (exit 1), worded as the CLI words it.
 */
export async function captured(run: (io: CommandIo) => Promise<number>): Promise<Captured> {
  let stdout = "";
  let stderr = "";
  const io: CommandIo = {
    stdout: { write: (text: string) => void (stdout += text) },
    stderr: { write: (text: string) => void (stderr += text) },
    stdoutIsTerminal: false,
    stderrIsTerminal: false,
    stdinIsTerminal: false,
  };
  try {
    const code = await run(io);
    return { code, stdout, stderr };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { code: 1, stdout, stderr: `${stderr}${message}\n` };
  }
}
