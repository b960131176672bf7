import { join } from "../events/posix_path.ts";
import type { RuntimeEnv } from "./paths.ts";

/**
 * The event store a command was given: `--store URL`, else the environment's `REIN_STORE` (when
 * the process may read it: the launcher grants it only when it is set); undefined for the
 * workspace's JSONL file. Throws for a value that is not a PostgreSQL URL.
 */
export function storeOf(flag: string | undefined, env: RuntimeEnv): string | undefined {
  const store = flag ?? (readable(env, "REIN_STORE") || undefined);
  if (store === undefined) return undefined;
  if (!/^postgres(?:ql)?:\/\//i.test(store)) {
    throw new Error(
      `Cannot use the store "${store}": expected a PostgreSQL URL (postgres://…) or none (the ` +
        "workspace's JSONL file)",
    );
  }
  return store;
}

/**
 * Run `command` on the JSONL form of the PostgreSQL log at `store`: its lines, exported byte for
 * byte (see `exportLines`) into a file in a temporary folder, removed afterwards. The file-based
 * readers (replay, state) thus read the database's log unchanged; what they would write beside
 * the log (snapshots) goes away with the folder.
 */
export async function withStoreLog<T>(
  store: string,
  command: (path: string) => Promise<T>,
): Promise<T> {
  const { exportLines } = await import("../events/postgres/log_transfer.ts");
  const dir = await Deno.makeTempDir({ prefix: "rein-store-" });
  try {
    const path = join(dir, "events.jsonl");
    await writeLines(path, exportLines(store));
    return await command(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Write `lines` to a new file at `path`, in large writes. */
export async function writeLines(path: string, lines: AsyncIterable<string>): Promise<void> {
  using file = await Deno.open(path, { write: true, createNew: true });
  await writeTo(file, lines);
}

/** Write `lines` to `out`, in writes of about a megabyte. */
export async function writeTo(
  out: { write(bytes: Uint8Array): Promise<number> },
  lines: AsyncIterable<string>,
): Promise<void> {
  const encoder = new TextEncoder();
  let chunk = "";
  const flush = async () => {
    const bytes = encoder.encode(chunk);
    chunk = "";
    let written = 0;
    while (written < bytes.length) written += await out.write(bytes.subarray(written));
  };
  for await (const line of lines) {
    chunk += line;
    if (chunk.length >= 1 << 20) await flush();
  }
  await flush();
}

/** The variable `name`, or undefined when it is unset or this process may not read it. */
function readable(env: RuntimeEnv, name: string): string | undefined {
  try {
    return env.get(name);
  } catch {
    return undefined;
  }
}
