/**
 * The Deno permission flags the agent runs under, as a pure function of what it may touch. Zero
 * imports: the launcher that uses it must start fast.
 *
 * @module
 */

/**
 * Programs the agent starts itself: bash for the bash tool and for hooks (and apiKeyHelper, as it
 * lands), bwrap for the bash sandbox, setpriv for the unconfined bash's supervisor, setsid to start
 * commands in a session of their own without forking the agent (see `spawnInOwnSession`), rg for
 * grep, git to clone a marketplace the settings enable a plugin from (core/plugins).
 */
export const AGENT_PROGRAMS: readonly string[] = [
  "bash",
  "bwrap",
  "setpriv",
  "setsid",
  "rg",
  "git",
];

/** The model endpoint when ANTHROPIC_BASE_URL is unset or empty (as the SDK defaults). */
export const DEFAULT_BASE_URL = "https://api.anthropic.com";

/**
 * Flags of the read-only commands (state, replay, sessions, log check and stats, help): read
 * anything (a log can be anywhere, and its snapshots beside it), and only the two variables they
 * read.
 */
export const READ_ONLY_PERMISSIONS: readonly string[] = [
  "--allow-read",
  "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME",
  "--no-prompt",
];

/**
 * Flags of `rein view`: read anything (the log and its snapshots), as the read-only commands, and
 * listen on 127.0.0.1 only; with `open`, start the browser (`xdg-open`, or `open` on macOS).
 */
export function viewPermissions(open: boolean): string[] {
  return [
    "--allow-read",
    "--allow-net=127.0.0.1",
    ...(open ? ["--allow-run=xdg-open,open"] : []),
    "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME",
    "--no-prompt",
  ];
}

/**
 * Flags of `rein mcp serve`: read only `read` (the workspace and the log's folder, as named and as
 * their real paths), start only rg (grep), no net, no write, and only the variables the
 * read-only commands read.
 */
export function mcpServePermissions(read: readonly string[]): string[] {
  return [
    `--allow-read=${pathList(unique(read))}`,
    "--allow-run=rg",
    "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME",
    "--no-prompt",
  ];
}

/**
 * Flags of `rein mcp list | get | add | add-json | remove`: read anything (as `rein trust`), and
 * write only `files`: the project's `.mcp.json`, `~/.claude.json` and the temporary file renamed
 * over each.
 */
export function mcpEditPermissions(files: readonly string[]): string[] {
  return [
    "--allow-read",
    `--allow-write=${pathList(unique(files))}`,
    "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,CLAUDE_CONFIG_DIR",
    "--no-prompt",
  ];
}

/**
 * Flags of `log salvage`: read anything, as the read-only commands, and write only `logDirs` (the
 * log's directory, as named and as its real path): the backup, the set-aside lines, the kept
 * prefix renamed over the log, the leases it checks and the snapshots it removes are all there.
 * Throws when a path contains a comma, which a Deno flag list cannot hold.
 */
export function salvagePermissions(logDirs: readonly string[]): string[] {
  return [
    "--allow-read",
    `--allow-write=${pathList(unique(logDirs))}`,
    "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME",
    "--no-prompt",
  ];
}

/**
 * Flags of `rein trust`: read anything (the folder to trust may be anywhere), and write only
 * `files`: Claude Code's `~/.claude.json` and the temporary file renamed over it. Throws when a
 * path contains a comma, which a Deno flag list cannot hold.
 */
export function trustPermissions(files: readonly string[]): string[] {
  return [
    "--allow-read",
    `--allow-write=${pathList(unique(files))}`,
    "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,CLAUDE_CONFIG_DIR",
    "--no-prompt",
  ];
}

/**
 * Variables Deno passes to a child only under unrestricted `--allow-run` (it matches the
 * prefixes case-insensitively).
 */
const LOADER_VARIABLE = /^(LD_|DYLD_)/i;

/** What the agent may touch. */
export interface AgentAccess {
  /** Paths it reads and writes: the workspace (with `.rein/`), the log's directory, temp. */
  readWrite: readonly string[];
  /** Paths it only reads: the user's `~/.claude`. */
  read: readonly string[];
  /** ANTHROPIC_BASE_URL as set, if set. */
  baseUrl: string | undefined;
  /** Other hosts it reaches (`host` or `host:port`): the remote MCP servers configured. */
  netHosts?: readonly string[];
  /** The environment the agent starts with. */
  env: Readonly<Record<string, string>>;
}

/**
 * The permission flags of the agent: read and write `readWrite`, read `read`, net only to the
 * model's host, run only {@link AGENT_PROGRAMS}, no prompts (a missing permission throws
 * `NotCapable`), and every variable: the agent reads them all, as the bash tool and hooks rebuild
 * the environment of their commands from it (minus secrets, whose values it reads to redact them).
 * When a loader variable (`LD_*`, `DYLD_*`) is set, Deno refuses to start a program under a
 * narrowed `--allow-run`, so run is unrestricted then; `notices` says so. Pure; throws when a
 * path contains a comma, which a Deno flag list cannot hold.
 */
export function agentPermissions(access: AgentAccess): { flags: string[]; notices: string[] } {
  const notices: string[] = [];
  const readWrite = unique(access.readWrite);
  const read = unique([...readWrite, ...access.read]);
  const hosts = unique([
    ...[modelHost(access.baseUrl)].filter((host) => host !== undefined),
    ...access.netHosts ?? [],
  ]);
  const loader = Object.keys(access.env).filter((name) => LOADER_VARIABLE.test(name)).sort();
  if (loader.length > 0) {
    notices.push(
      `rein: ${loader.join(", ")} ${loader.length === 1 ? "is" : "are"} set, and Deno passes ` +
        "loader variables to programs only with unrestricted --allow-run: the agent may start " +
        "any program",
    );
  }
  const flags = [
    `--allow-read=${pathList(read)}`,
    `--allow-write=${pathList(readWrite)}`,
    ...(hosts.length > 0 ? [`--allow-net=${hosts.join(",")}`] : []),
    "--allow-env",
    loader.length > 0 ? "--allow-run" : `--allow-run=${AGENT_PROGRAMS.join(",")}`,
    "--no-prompt",
  ];
  return { flags, notices };
}

/**
 * The `--allow-net` entry of the model endpoint: its host, with the port when the URL gives one;
 * undefined for a URL that does not parse (the SDK then reports it). Pure.
 */
export function modelHost(baseUrl: string | undefined): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl || DEFAULT_BASE_URL);
  } catch {
    return undefined;
  }
  return url.port ? url.host : url.hostname;
}

function pathList(paths: readonly string[]): string {
  const comma = paths.find((path) => path.includes(","));
  if (comma !== undefined) {
    throw new Error(
      `Cannot confine the agent: a Deno permission flag cannot name a path with a comma: ` +
        `"${comma}"`,
    );
  }
  return paths.join(",");
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/** The environment variables the PostgreSQL driver (node-postgres) reads, and rein's own. */
const POSTGRES_ENV = [
  "REIN_STORE",
  "PGHOST",
  "PGPORT",
  "PGUSER",
  "PGPASSWORD",
  "PGDATABASE",
  "PGPASSFILE",
  "PGSSLMODE",
  "PGSSLNEGOTIATION",
  "PGAPPNAME",
  "PGOPTIONS",
  "PGBINARY",
  "PGCLIENT_ENCODING",
  "PGREPLICATION",
  "PGCONNECT_TIMEOUT",
  "NODE_PG_FORCE_NATIVE",
  "USER",
  "USERNAME",
  "APPDATA",
];

/**
 * `permissions` of a log command, widened for the PostgreSQL store at `store` (`postgres://…`):
 * the network to its host (and port) only, the driver's environment variables, and writing in
 * `tmp` (replay and state read the database's log from a temporary JSONL copy). A value that is
 * not a PostgreSQL URL widens nothing (the command itself refuses it). Pure.
 */
export function storePermissions(
  permissions: readonly string[],
  store: string,
  tmp: string,
): string[] {
  const host = storeHost(store);
  if (host === undefined) return [...permissions];
  const widened = permissions.map((flag) =>
    flag.startsWith("--allow-env=") ? `${flag},${POSTGRES_ENV.join(",")}` : flag
  );
  if (!widened.some((flag) => flag === "--allow-env" || flag.startsWith("--allow-env="))) {
    widened.push(`--allow-env=${POSTGRES_ENV.join(",")}`);
  }
  return [...widened, `--allow-net=${host}`, `--allow-write=${tmp}`];
}

/** The `host:port` a PostgreSQL store URL connects to; undefined for anything else. Pure. */
export function storeHost(store: string): string | undefined {
  if (!/^postgres(?:ql)?:\/\//i.test(store)) return undefined;
  try {
    const url = new URL(store);
    return `${url.hostname || "localhost"}:${url.port || "5432"}`;
  } catch {
    return undefined;
  }
}
