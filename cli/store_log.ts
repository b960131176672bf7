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
 * byte (see `exportLines`) into a file in a temporary folder, removed afterwards, with this
 * machine's snapshots of the log (its snapshot table's rows) as the files beside it: a snapshot
 * of a database's log is the very file a snapshot of its JSONL form would be. The file-based
 * readers (replay, state) thus read the database's log and its snapshots unchanged, and check
 * them alike (`replay --verify` names a forged one); what they would write beside the log goes
 * away with the folder.
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
    await copySnapshots(store, path);
    return await command(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Write this machine's snapshots of the PostgreSQL log at `store` beside the JSONL log at `path`,
 * as they are (checked when read, as any snapshot file). None without a machine key, or when the
 * table cannot be read.
 */
export async function copySnapshots(store: string, path: string): Promise<void> {
  const { processMachineKey } = await import("../core/effects/machine_key.ts");
  const key = await processMachineKey().catch(() => undefined);
  if (key === undefined) return;
  const { openStoreSnapshots } = await import("./store_sessions.ts");
  const { fileSnapshots } = await import("../core/snapshots/snapshot_place.ts");
  const table = await openStoreSnapshots(store, key.id).catch(() => undefined);
  if (table === undefined) return;
  try {
    const files = fileSnapshots(path);
    const names = [...await table.place.catalogNames(), ...await table.place.sessionNames()];
    for (const name of names) {
      const text = await table.place.read(name);
      if (text !== undefined) await files.write(name, text);
    }
  } finally {
    await table.close();
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
