/**
 * The scale bench's large workspace: a log of `REIN_BENCH_EVENTS` events (default 1,000,000,
 * ~450 MB) from testing/generate_log.ts, generated once and cached under
 * `$REIN_BENCH_CACHE` (default `$TMPDIR/rein-scale-bench`, else `/tmp/rein-scale-bench`) in a
 * directory keyed by the generator's version and the size, so reruns start at once. The cached
 * directory is the workspace the sessions were recorded in. A snapshot of the log's end (the
 * catalog, and the last session's state) is taken once per process with `buildSnapshot`, as a
 * workspace holds after a session closes. Runs append to the log and take snapshots of their own,
 * so {@link restoreLog} cuts the log back to what was generated and drops the snapshots past it
 * after each run; {@link withoutSnapshots} runs something with none.
 *
 * @module
 */
import { join } from "node:path";
import { buildSnapshot, snapshotDir } from "../core/snapshots/mod.ts";
import { type GeneratedSession, generateLog, GENERATOR_VERSION } from "../testing/generate_log.ts";

/** A generated workspace holding a large log. */
export interface ScaleLog {
  /** The workspace directory (the sessions' recorded workspace). */
  workspace: string;
  /** Its log, `<workspace>/.rein/events.jsonl`. */
  path: string;
  events: number;
  /** Size of the log as generated. */
  bytes: number;
  sessions: GeneratedSession[];
}

/** The number of events of the large log: `REIN_BENCH_EVENTS`, default 1,000,000. */
export function scaleEvents(): number {
  const text = Deno.env.get("REIN_BENCH_EVENTS");
  const events = Number(text ?? 1_000_000);
  if (!Number.isInteger(events) || events < 7) {
    throw new Error(`REIN_BENCH_EVENTS must be an integer of at least 7, found "${text}"`);
  }
  return events;
}

/** The cached log of `events` events, generated first when missing or stale. */
export async function scaleLog(events: number): Promise<ScaleLog> {
  const cache = Deno.env.get("REIN_BENCH_CACHE") ??
    join(Deno.env.get("TMPDIR") ?? "/tmp", "rein-scale-bench");
  const key = `v${GENERATOR_VERSION}-${events}`;
  const workspace = join(cache, key);
  const manifestPath = join(cache, `${key}.json`);
  const cached = await Deno.readTextFile(manifestPath).then(
    (text) => JSON.parse(text) as ScaleLog,
    () => undefined,
  );
  if (cached) {
    const size = await Deno.stat(cached.path).then((info) => info.size, () => -1);
    if (size >= cached.bytes) {
      await restoreLog(cached);
      await snapshotEnd(cached);
      return cached;
    }
  }
  await Deno.remove(workspace, { recursive: true }).catch(() => {});
  await Deno.mkdir(join(workspace, ".rein"), { recursive: true });
  const path = join(workspace, ".rein", "events.jsonl");
  const started = performance.now();
  const generated = await generateLog(path, { events, workspace });
  const log: ScaleLog = { workspace, path, ...generated };
  await Deno.writeTextFile(manifestPath, JSON.stringify(log));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`generated ${path}: ${events} events, ${mb(log.bytes)} MB in ${seconds} s`);
  await snapshotEnd(log);
  return log;
}

/** Snapshot the catalog and the last session at the generated log's end. */
async function snapshotEnd(log: ScaleLog): Promise<void> {
  const last = log.sessions.at(-1)?.id;
  const built = await buildSnapshot(log.path, { sessions: last === undefined ? [] : [last] });
  if (built.seq !== log.events) {
    throw new Error(`The snapshot of ${log.path} is at seq ${built.seq}, not ${log.events}`);
  }
}

/**
 * Cut the log back to its generated size, dropping what runs appended, and remove the snapshots
 * taken past that point (they no longer fit the log).
 */
export async function restoreLog(log: ScaleLog): Promise<void> {
  await Deno.truncate(log.path, log.bytes);
  for (const file of await snapshotFiles(snapshotDir(log.path))) {
    if (!file.endsWith(".json") || await seqOf(file) > log.events) await Deno.remove(file);
  }
}

/** Run `fn` with the log's snapshots moved aside, then put them back. */
export async function withoutSnapshots<T>(
  log: Pick<ScaleLog, "path">,
  fn: () => Promise<T>,
): Promise<T> {
  const dir = snapshotDir(log.path);
  const aside = `${dir}.aside`;
  await Deno.rename(dir, aside);
  try {
    return await fn();
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.rename(aside, dir);
  }
}

/** Every file under `dir` (none when it is missing). */
async function snapshotFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) files.push(...await snapshotFiles(path));
      else files.push(path);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return files;
}

/** The seq a snapshot file was taken at (its header's), or Infinity when it has none. */
async function seqOf(path: string): Promise<number> {
  using file = await Deno.open(path);
  const head = new Uint8Array(4096);
  const read = await file.read(head) ?? 0;
  const match = new TextDecoder().decode(head.subarray(0, read)).match(/"seq":(\d+)/);
  return match ? Number(match[1]) : Infinity;
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}
