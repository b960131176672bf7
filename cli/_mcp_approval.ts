/**
 * Asks on the terminal whether to start a project's MCP server (the REPL, once per server and
 * project, as Claude Code asks): y or yes starts it, anything else does not. Reads one line in
 * the terminal's line mode.
 */
export function askMcpOnTerminal(
  write: (text: string) => void,
): (name: string, target: string) => Promise<boolean> {
  return async (name, target) => {
    write(
      `This project's .mcp.json has the MCP server "${name}", which runs: ${target}\n` +
        "Start it (your answer is remembered for this project)? [y/N] ",
    );
    const buffer = new Uint8Array(1024);
    const read = await Deno.stdin.read(buffer).catch(() => null);
    const answer = read === null ? "" : new TextDecoder().decode(buffer.subarray(0, read));
    return /^\s*y(es)?\s*$/i.test(answer);
  };
}
