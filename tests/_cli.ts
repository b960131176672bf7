import { fileURLToPath } from "node:url";

/** Absolute path of cli/main.ts. */
export const CLI = fileURLToPath(new URL("../cli/main.ts", import.meta.url));

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

/** Run `rein` as a subprocess with {@link childEnv}. `permissions` defaults to `-A`. */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string; permissions?: string[]; cwd?: string } =
    {},
): Promise<CliResult> {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(options.permissions ?? ["-A"]), "--quiet", CLI, ...args],
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
