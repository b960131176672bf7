import { fileURLToPath } from "node:url";

/** Absolute path of cli/main.ts. */
export const CLI = fileURLToPath(new URL("../cli/main.ts", import.meta.url));
/** The checkout these tests are in. */
const ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
/** Whether this test file has started a refresh of the checkout's cached bundle. */
let refreshStarted = false;

/**
 * The `deno run` arguments that start rein with all permissions, as {@link runCli} and
 * `CliProcess` run it: the checkout's cached bundle of its current sources
 * (`.bundle-at-KEY/main.js`, see cli/bundle_cache.ts) when it is there and fresh for this Deno, as
 * `deno task agent` starts it (about half the start-up: not the hundreds of modules of the SDK,
 * zod… one by one); else cli/main.ts, and a refresh of the cache is started in the background
 * (once per test file, as the launcher starts one) for the starts after it. The launcher's own
 * check decides freshness: a bundle runs only if none of its inputs changed since it was built.
 * `REIN_TEST_FROM_SOURCE=1` runs cli/main.ts always.
 */
export function cliEntry(): string[] {
  const fromSource = ["-A", "--quiet", CLI];
  if ((Deno.env.get("REIN_TEST_FROM_SOURCE") ?? "0") !== "0") return fromSource;
  const deno = Deno.execPath();
  const key = (() => {
    try {
      return Deno.readTextFileSync(`${ROOT}/.bundle-cache/current`).trim();
    } catch {
      return "";
    }
  })();
  const bundle = `${ROOT}/.bundle-at-${key}`;
  // cli/launch.sh's bundle_fresh, on this Deno.
  const fresh = key !== "" && new Deno.Command("/bin/sh", {
    args: ["-c", '[ -f "$2/stamp" ] && [ -f "$2/fresh.sh" ] && deno=$1 && . "$2/fresh.sh"'].concat(
      ["sh", deno, bundle],
    ),
    stdout: "null",
    stderr: "null",
  }).outputSync().success;
  if (fresh) return ["-A", "--quiet", "--no-config", `${bundle}/main.js`];
  if (!refreshStarted) {
    refreshStarted = true;
    // cli/launch.sh's refresh_bundle: detached, niced, unless one runs; its output to its log.
    new Deno.Command("/bin/sh", {
      args: ["-c", REFRESH, "sh", deno, ROOT],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).outputSync();
  }
  return fromSource;
}

const REFRESH = `cache=$2/.bundle-cache
[ -w "$2" ] || exit 0
if [ -f "$cache/lock" ] && read -r holder <"$cache/lock" 2>/dev/null && kill -0 "$holder" 2>/dev/null; then
  exit 0
fi
mkdir -p "$cache" || exit 0
detach=nohup
command -v setsid >/dev/null 2>&1 && detach=setsid
(exec "$detach" nice -n 10 "$1" run --quiet --no-config --no-prompt --allow-read "--allow-write=$2" \
  --allow-run --allow-env "$2/cli/bundle_cache.ts" "$1" </dev/null >>"$cache/refresh.log" 2>&1 &)`;

/** What a finished CLI run printed. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment for a child `rein`: this process's, minus INIT_CWD and every ANTHROPIC_* and
 * REIN_* variable (so no real credential or endpoint leaks into a test), plus `extra`. The rest is
 * kept so the child finds Deno's npm cache and the registry (HOME, DENO_DIR, proxies, certs).
 */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = Deno.env.toObject();
  for (const name of Object.keys(env)) {
    if (name.startsWith("ANTHROPIC_") || name.startsWith("REIN_")) delete env[name];
    // Set by the `deno task test` running these tests; a user's shell has none, and a nested
    // `deno task` would keep it instead of recording where it was started.
    if (name === "INIT_CWD") delete env[name];
  }
  return { ...env, NO_COLOR: "1", ...extra };
}

/**
 * Run `rein` as a subprocess with {@link childEnv}: with `-A`, as {@link cliEntry} says (the
 * cached bundle when fresh); with `permissions` given, cli/main.ts under them.
 */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string; permissions?: string[]; cwd?: string } =
    {},
): Promise<CliResult> {
  const command = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...(options.permissions ? [...options.permissions, "--quiet", CLI] : cliEntry()),
      ...args,
    ],
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      NO_COLOR: "1",
      ...options.env,
    },
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const child = command.spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** The envelopes of a JSONL log file. */
export async function readLogLines(
  path: string,
): Promise<
  Array<
    Record<string, unknown> & {
      type: string;
      seq: number;
      session: string;
      data: Record<string, unknown>;
    }
  >
> {
  const text = await Deno.readTextFile(path);
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

/** A temporary workspace directory, removed on dispose. */
export async function tempWorkspace(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-cli-" }));
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true });
    },
  };
}
