import type { CommandIo } from "../io.ts";
import { assertLogExists } from "../log_commands.ts";
import { startViewServer, type ViewServerOptions } from "./view_server.ts";
import { join } from "../../events/posix_path.ts";

/** What `rein view` is asked for. */
export interface ViewOptions {
  /** Port on 127.0.0.1; a free one when omitted. */
  port?: number | undefined;
  /** Open the page in the browser (`xdg-open`, `open` on macOS). */
  open: boolean;
  /**
   * A PostgreSQL store (`postgres://…`) whose log to show instead of the file: copied to a
   * temporary JSONL file (with this machine's snapshots of it) kept current by LISTEN/NOTIFY.
   */
  store?: string | undefined;
}

/**
 * `rein view [LOG] [--port N] [--open] [--store URL]`: serve the log's page on 127.0.0.1 (printing
 * its address, with the token every request needs) until SIGINT or SIGTERM, or until `signal`
 * aborts. Reads the log; never writes it. A PostgreSQL store's log is named without the URL's
 * password. Throws when there is no log, and what `Deno.serve` throws (the port is taken).
 */
export async function viewCommand(
  path: string,
  options: ViewOptions,
  io: CommandIo,
  signal?: AbortSignal,
): Promise<number> {
  if (options.store !== undefined) return await viewStore(options.store, options, io, signal);
  await assertLogExists(path);
  return await serve({ log: path }, options, io, signal);
}

/** Serve the PostgreSQL log at `store` from a copy in a temporary folder, removed at the end. */
async function viewStore(
  store: string,
  options: ViewOptions,
  io: CommandIo,
  signal?: AbortSignal,
): Promise<number> {
  const { mirrorLog } = await import("../../events/postgres/log_mirror.ts");
  const { copySnapshots } = await import("../store_log.ts");
  const dir = await Deno.makeTempDir({ prefix: "rein-view-" });
  try {
    const onNotice = (m: string) => io.stderr.write(`${m}\n`);
    const mirror = await mirrorLog(store, join(dir, "events.jsonl"), { onNotice });
    try {
      await copySnapshots(store, mirror.path);
      return await serve(
        {
          log: mirror.path,
          name: mirror.display,
          follow: (from, stop) => mirror.follow(from, stop),
        },
        options,
        io,
        signal,
      );
    } finally {
      await mirror.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Serve `log` until a signal, or until `signal` aborts. */
async function serve(
  log: Pick<ViewServerOptions, "log" | "name" | "follow">,
  options: ViewOptions,
  io: CommandIo,
  signal?: AbortSignal,
): Promise<number> {
  const server = await startViewServer({
    ...log,
    ...(options.port === undefined ? {} : { port: options.port }),
    onNotice: (m) => io.stderr.write(`${m}\n`),
  });
  io.stdout.write(`rein view of ${log.name ?? log.log}\n${server.url}\n(Ctrl-C to stop)\n`);
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
