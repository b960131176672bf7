/**
 * The cached bundle `deno task agent` runs: the bundle `deno task build` makes (cli/build.ts), built
 * from the checkout's current sources, so that rein run from a checkout starts as the installed
 * command does (no loading of the SDK's, zod's and OpenTelemetry's hundreds of modules at start)
 * without ever running stale code.
 *
 *     deno run --allow-read --allow-write=ROOT --allow-run --allow-env cli/bundle_cache.ts DENO
 *
 * refreshes the cache of the checkout this file is in, for the Deno the launcher names `DENO` (as
 * it names it: the string is part of the key). cli/launch.sh starts it detached and niced when the
 * cache is missing or stale, and runs rein from source that time: a build takes seconds (about 3–4
 * s on the machine of bench/agent_bench.ts), too long to wait for at every start after an edit.
 *
 * Layout, in the checkout (ignored by git as `.bundle-*`/):
 * - `.bundle-at-KEY/`: one complete bundle (one level below the checkout, as `dist/` is, so that
 *   it finds rein's `skills/` beside it), never changed once in place but for its `stamp`. KEY is a
 *   digest of the content of every input (each local module of cli/main.ts's graph, as `deno info`
 *   lists it, JSON and text imports included; deno.json; deno.lock; cli/build.ts; this file), of
 *   their paths, of the Deno version and binary, and of the `DENO` string.
 *   - `fresh.sh`: the launcher's check, a shell fragment it sources (no process but `find`):
 *     `[ "$deno" = 'DENO' ] && find -H INPUTS… DENO_BINARY -prune -newercm STAMP -exec false {} +`,
 *     every input by its absolute path (and DENO and its folder when DENO is a link to the
 *     binary). It succeeds when the bundle may run.
 *   - `stamp`: an empty file whose modification time is when the build began reading its inputs.
 * - `.bundle-cache/current`: the KEY of the bundle to run, replaced atomically (a rename).
 * - `.bundle-cache/lock`: the pid of the refresh running; `build-*` its work folders;
 *   `failed`: the KEY whose build failed (not tried again until an input changes); `refresh.log`.
 *
 * The launcher's check, a few ms at start: `current` names a folder that has its `stamp`, the
 * launcher's Deno is the one the bundle was built for, and `find` finds no input whose status
 * changed (ctime: any write, rename, replacement or `touch`; a program cannot set it back) after
 * the stamp, and none missing (`find` fails then too). The refresh makes that safe: it stamps
 * before it reads, and once built it runs that same check on its stamp (and reads every input
 * again) and gives up when one changed meanwhile, even if changed back: a bundle in place was built
 * from inputs that have not changed since its stamp. A bundle becomes visible only by the rename
 * of a complete folder (files synced first) and then of `current`: a refresh killed at any point
 * leaves the previous bundle, or none, never part of one.
 *
 * When an input's status changed but not its content (a `touch`, a `git checkout` there and back),
 * the refresh finds the folder of that KEY in place and only moves its stamp forward: no build.
 * Only one refresh runs at a time (the lock; one whose process is gone is taken over), and each gives
 * up after {@link REFRESH_TIMEOUT_MS}. After a build, old bundles are removed but for the 3 newest
 * and any a process is running (its `main.js` in a command line under /proc).
 *
 * @module
 */
import { buildBundle } from "./build.ts";
import { dirname, join } from "../events/posix_path.ts";

/** Folder of the cache's pointer, lock and work folders, in the checkout. */
export const CACHE_DIR = ".bundle-cache";
/** Prefix of a bundle's folder in the checkout; its KEY follows. */
export const BUNDLE_PREFIX = ".bundle-at-";
/** A refresh still running after this long gives up (its build is killed). */
export const REFRESH_TIMEOUT_MS = 180_000;
/** Old bundles kept besides the current one and those in use. */
const KEEP_OLD = 3;

/** What a refresh did. */
export type RefreshOutcome =
  /** Built and put in place a new bundle. */
  | "built"
  /** The inputs' content was that of a bundle in place: its stamp moved forward, nothing built. */
  | "restamped"
  /** Another refresh holds the lock. */
  | "busy"
  /** An input changed while building: nothing put in place. */
  | "changed"
  /** The build of these inputs failed before: not tried again. */
  | "failed-before";

/** Where and for which Deno a refresh works. */
export interface RefreshOptions {
  /** The checkout. */
  root: string;
  /** The Deno as the launcher names it (`$deno` in cli/launch.sh). */
  deno: string;
  /** Stops the build (its `deno bundle`) when aborted. */
  signal?: AbortSignal;
}

/**
 * Bring the checkout's cached bundle up to date with its sources (see the module's doc). Resolves
 * to what it did and the KEY of the bundle now current, if any; throws when listing the inputs or
 * bundling fails (the KEY is then recorded as failed).
 */
export async function refreshBundleCache(
  options: RefreshOptions,
): Promise<{ outcome: RefreshOutcome; key?: string }> {
  const cache = join(options.root, CACHE_DIR);
  await Deno.mkdir(cache, { recursive: true });
  const lock = join(cache, "lock");
  if (!await takeLock(lock)) return { outcome: "busy" };
  try {
    // Work folders of refreshes that were killed: the lock is this one's now.
    for await (const entry of Deno.readDir(cache)) {
      if (entry.isDirectory && entry.name.startsWith("build-")) {
        await Deno.remove(join(cache, entry.name), { recursive: true }).catch(() => {});
      }
    }
    const work = await Deno.makeTempDir({ dir: cache, prefix: "build-" });
    try {
      return await refreshLocked(options, cache, work);
    } finally {
      await Deno.remove(work, { recursive: true }).catch(() => {});
    }
  } finally {
    await Deno.remove(lock).catch(() => {});
  }
}

async function refreshLocked(
  options: RefreshOptions,
  cache: string,
  work: string,
): Promise<{ outcome: RefreshOutcome; key?: string }> {
  const { root, deno } = options;
  // Its mtime is when reading began: an input changed after it is newer (the launcher's check).
  const stamp = join(work, "stamp");
  await Deno.writeFile(stamp, new Uint8Array());
  const inputs = await bundleInputs(root);
  const before = await digests(root, inputs);
  const key = await cacheKey(deno, inputs, before);
  const bundle = join(root, BUNDLE_PREFIX + key);
  if (await isComplete(bundle)) {
    await Deno.rename(stamp, join(bundle, "stamp"));
    await writePointer(cache, key);
    return { outcome: "restamped", key };
  }
  const failed = join(cache, "failed");
  if ((await Deno.readTextFile(failed).catch(() => "")).trim() === key) {
    return { outcome: "failed-before", key };
  }
  const out = join(work, "bundle");
  try {
    await buildBundle(out, options.signal);
  } catch (error) {
    // A build stopped (the refresh's timeout) may succeed another time; a failed one would not.
    if (!options.signal?.aborted) await Deno.writeTextFile(failed, `${key}\n`);
    throw error;
  }
  // Nothing changed while building, not even there and back: the launcher's check, on this stamp.
  // (The shell by its path: the PATH the launcher had may be gone, as a test's temporary one is.)
  const after = await digests(root, inputs).catch(() => []);
  const check = join(work, "fresh.sh");
  await Deno.writeTextFile(check, freshScript(deno, root, inputs, work));
  const unchanged = await new Deno.Command("/bin/sh", {
    args: ["-c", 'deno=$1 && . "$2"', "sh", deno, check],
    env: { PATH: `${Deno.env.get("PATH") ?? ""}:/usr/bin:/bin` },
    stdout: "null",
    stderr: "null",
  }).output();
  if (!unchanged.success || after.join("\n") !== before.join("\n")) return { outcome: "changed" };
  await Deno.writeTextFile(join(out, "fresh.sh"), freshScript(deno, root, inputs, bundle));
  await syncFiles(out);
  await Deno.rename(stamp, join(out, "stamp"));
  try {
    await Deno.rename(out, bundle);
  } catch (error) {
    // Another refresh (one that took over a lock it thought abandoned) put the same one there.
    if (!await isComplete(bundle)) throw error;
  }
  await writePointer(cache, key);
  await removeOld(root, key);
  return { outcome: "built", key };
}

/**
 * The bundle's inputs, relative to `root` (absolute when outside it), sorted: every local module of
 * cli/main.ts's graph as `deno info` lists it, and the files that decide how it is bundled.
 */
async function bundleInputs(root: string): Promise<string[]> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "cli/main.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  if (!info.success) throw new Error(`Cannot list the bundle's modules: ${decode(info.stderr)}`);
  const graph = JSON.parse(decode(info.stdout)) as { modules: { local?: string }[] };
  const files = new Set(["deno.json", "cli/build.ts", "cli/bundle_cache.ts"]);
  if (await exists(join(root, "deno.lock"))) files.add("deno.lock");
  for (const module of graph.modules) {
    if (module.local === undefined) continue;
    const inside = module.local.startsWith(`${root}/`);
    files.add(inside ? module.local.slice(root.length + 1) : module.local);
  }
  return [...files].sort();
}

/** The SHA-256 of each input, hex, in order. */
async function digests(root: string, inputs: readonly string[]): Promise<string[]> {
  return await Promise.all(inputs.map(async (path) => {
    const bytes = await Deno.readFile(path.startsWith("/") ? path : join(root, path));
    return hex(await crypto.subtle.digest("SHA-256", bytes));
  }));
}

/** The KEY: a digest of the inputs' paths and content, the Deno version, binary and name. */
async function cacheKey(
  deno: string,
  inputs: readonly string[],
  contents: readonly string[],
): Promise<string> {
  const text = JSON.stringify([deno, Deno.execPath(), Deno.version.deno, inputs, contents]);
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).slice(0, 20);
}

/**
 * The shell fragment cli/launch.sh sources to check the bundle in folder `bundle`: it succeeds when
 * the launcher's `$deno` is `deno` and no input (relative to `root`, or absolute) nor the Deno binary
 * changed after the bundle's stamp or is missing. Pure.
 */
export function freshScript(
  deno: string,
  root: string,
  inputs: readonly string[],
  bundle: string,
): string {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const paths = [
    ...inputs.map((path) => path.startsWith("/") ? path : join(root, path)),
    ...denoPaths(deno),
  ];
  return [
    "# Written by cli/bundle_cache.ts for cli/launch.sh: whether this bundle may run.",
    `[ "$deno" = ${quote(deno)} ] &&`,
    `  find -H ${paths.map(quote).join(" ")} \\`,
    `    -prune -newercm ${quote(join(bundle, "stamp"))} -exec false {} + 2>/dev/null`,
    "",
  ].join("\n");
}

/**
 * What says which Deno binary `deno` (the launcher's, absolute) is: the binary running this, and
 * when `deno` is a symbolic link to it, the link's folder too (`find -H` follows the link: its
 * folder changes when it is pointed elsewhere).
 */
function denoPaths(deno: string): string[] {
  const binary = Deno.execPath();
  if (deno === binary || !deno.startsWith("/")) return [binary];
  return [binary, deno, dirname(deno)];
}

/** A bundle's folder is complete when its stamp, written last, is there. */
async function isComplete(bundle: string): Promise<boolean> {
  return await exists(join(bundle, "stamp")) && await exists(join(bundle, "main.js"));
}

/** Point the launcher at bundle `key`: written beside, then renamed over `current`. */
async function writePointer(cache: string, key: string): Promise<void> {
  const temporary = join(cache, `current.${Deno.pid}`);
  await Deno.writeTextFile(temporary, `${key}\n`);
  await Deno.rename(temporary, join(cache, "current"));
}

/** Flush every file of `dir` to disk, so a rename that survives a crash names whole files. */
async function syncFiles(dir: string): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile) continue;
    using file = await Deno.open(join(dir, entry.name), { read: true, write: true });
    await file.sync();
  }
}

/**
 * Take the lock at `path` (its content: this pid). One held by a process that is gone is taken
 * over; resolves false when another refresh holds it.
 */
async function takeLock(path: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await Deno.writeTextFile(path, `${Deno.pid}\n`, { createNew: true });
      return true;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    const holder = Number((await Deno.readTextFile(path).catch(() => "")).trim());
    const age = Date.now() -
      ((await Deno.stat(path).catch(() => undefined))?.mtime?.getTime() ?? 0);
    if (Number.isInteger(holder) && holder > 0 && age < REFRESH_TIMEOUT_MS * 2) {
      if (await isRunning(holder)) return false;
    }
    await Deno.remove(path).catch(() => {});
  }
  return false;
}

/** Whether process `pid` exists (`kill -0`). */
async function isRunning(pid: number): Promise<boolean> {
  const { success } = await new Deno.Command("/bin/sh", {
    args: ["-c", 'kill -0 "$1" 2>/dev/null', "sh", String(pid)],
    stdout: "null",
    stderr: "null",
  }).output();
  return success;
}

/**
 * Remove the bundles other than `current`, those a process runs (seen in /proc), and the
 * {@link KEEP_OLD} newest; where /proc cannot be read, none is removed that is under a week old.
 */
async function removeOld(root: string, current: string): Promise<void> {
  const used = await commandLines();
  const old: { path: string; mtime: number }[] = [];
  for await (const entry of Deno.readDir(root)) {
    if (!entry.isDirectory || !entry.name.startsWith(BUNDLE_PREFIX)) continue;
    if (entry.name === BUNDLE_PREFIX + current) continue;
    const path = join(root, entry.name);
    if (used?.includes(`${path}/`) ?? false) continue;
    const mtime = (await Deno.stat(path)).mtime?.getTime() ?? 0;
    if (used === undefined && Date.now() - mtime < 7 * 24 * 3600_000) continue;
    old.push({ path, mtime });
  }
  old.sort((a, b) => b.mtime - a.mtime);
  for (const { path } of old.slice(KEEP_OLD)) {
    await Deno.remove(path, { recursive: true }).catch(() => {});
  }
}

/** Every process's command line, joined; undefined where /proc is not there to read. */
async function commandLines(): Promise<string | undefined> {
  const lines: string[] = [];
  try {
    for await (const entry of Deno.readDir("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      const line = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
      lines.push(line.replaceAll("\0", " "));
    }
  } catch {
    return undefined;
  }
  return lines.join("\n");
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

function hex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

if (import.meta.main) {
  const deno = Deno.args[0] ?? Deno.execPath();
  const root = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
  // The launcher appends this process's output to the cache's refresh.log: kept short.
  const log = join(root, CACHE_DIR, "refresh.log");
  if (((await Deno.stat(log).catch(() => undefined))?.size ?? 0) > 256 * 1024) {
    await Deno.truncate(log).catch(() => {});
  }
  const timeout = AbortSignal.timeout(REFRESH_TIMEOUT_MS);
  timeout.addEventListener("abort", () => setTimeout(() => Deno.exit(1), 5_000));
  try {
    const { outcome, key } = await refreshBundleCache({ root, deno, signal: timeout });
    console.log(`${new Date().toISOString()} ${outcome}${key === undefined ? "" : ` ${key}`}`);
    Deno.exit(0);
  } catch (error) {
    console.error(
      `rein: Cannot refresh the cached bundle: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
    Deno.exit(1);
  }
}
