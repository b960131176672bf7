/**
 * The scale bench's large workspace: a log of `REIN_BENCH_EVENTS` events (default 1,000,000,
 * ~450 MB) from testing/generate_log.ts, generated once and cached under
 * `$REIN_BENCH_CACHE` (default `$TMPDIR/rein-scale-bench`, else `/tmp/rein-scale-bench`) in a
 * directory keyed by the generator's version and the size, so reruns start at once. The cached
 * directory is the workspace the sessions were recorded in; runs append to its log, so
 * {@link restoreLog} cuts it back to what was generated after each run.
 *
 * @module
 */
import { join } from "node:path";
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
  return log;
}

/** Cut the log back to its generated size, dropping what runs appended. */
export async function restoreLog(log: ScaleLog): Promise<void> {
  await Deno.truncate(log.path, log.bytes);
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}
