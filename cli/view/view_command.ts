import type { CommandIo } from "../io.ts";
import { assertLogExists } from "../log_commands.ts";
import { startViewServer } from "./view_server.ts";

/** What `rein view` is asked for. */
export interface ViewOptions {
  /** Port on 127.0.0.1; a free one when omitted. */
  port?: number | undefined;
  /** Open the page in the browser (`xdg-open`, `open` on macOS). */
  open: boolean;
}

/**
 * `rein view [LOG] [--port N] [--open]`: serve the log's page on 127.0.0.1 (printing its address,
 * with the token every request needs) until SIGINT or SIGTERM, or until `signal` aborts. Reads the
 * log; never writes. Throws when there is no log, and what `Deno.serve` throws (the port is taken).
 */
export async function viewCommand(
  path: string,
  options: ViewOptions,
  io: CommandIo,
  signal?: AbortSignal,
): Promise<number> {
  await assertLogExists(path);
  const server = await startViewServer({
    log: path,
    ...(options.port === undefined ? {} : { port: options.port }),
    onNotice: (m) => io.stderr.write(`${m}\n`),
  });
  io.stdout.write(`rein view of ${path}\n${server.url}\n(Ctrl-C to stop)\n`);
  if (options.open) openBrowser(server.url, io);
  const stop = () => void server.close();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const name of signals) Deno.addSignalListener(name, stop);
  signal?.addEventListener("abort", stop, { once: true });
  try {
    await server.finished;
  } finally {
    for (const name of signals) Deno.removeSignalListener(name, stop);
  }
  return 0;
}

/** Open `url` in the person's browser; says so on stderr when it cannot. */
function openBrowser(url: string, io: CommandIo): void {
  const program = Deno.build.os === "darwin" ? "open" : "xdg-open";
  try {
    const child = new Deno.Command(program, {
      args: [url],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
  } catch (error) {
    io.stderr.write(
      `Cannot open the browser with "${program}": ${
        error instanceof Error ? error.message : String(error)
      }; open the address above\n`,
    );
  }
}
