import type { McpScope, McpTransport } from "../../events/event_types.ts";

/** A stdio server's entry: a command rein starts and talks to over its stdin and stdout. */
export interface McpStdioConfig {
  type: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Per-call timeout in ms (Claude Code's `timeout`; values under 1000 are ignored). */
  timeout?: number;
}

/** A remote server's entry: streamable HTTP (`http`) or the older SSE transport. */
export interface McpRemoteConfig {
  type: "http" | "sse";
  url: string;
  headers: Record<string, string>;
  timeout?: number;
}

/** One server's entry in an `mcpServers` object, checked. */
export type McpServerConfig = McpStdioConfig | McpRemoteConfig;

/** A server's entry with where it was read. */
export interface ScopedServer {
  name: string;
  scope: McpScope;
  /** The file it was read from (or `--mcp-config` for JSON given on the command line). */
  file: string;
  config: McpServerConfig;
}

/** The servers of one `mcpServers` object, in order, and the entries that could not be read. */
export interface ParsedServers {
  servers: ScopedServer[];
  problems: string[];
}

/**
 * The entries of an `mcpServers` object (`.mcp.json`'s, `~/.claude.json`'s, `--mcp-config`'s) as
 * Claude Code reads them: `type` is `stdio` when absent (an entry with a `url` then is an error),
 * `http` (alias `streamable-http`) or `sse`; a bad entry is reported with the file and the
 * server's name and left out, the others kept. `type: "sdk"` and `ws` entries are skipped with a
 * problem each (rein has no SDK host and no WebSocket client). Pure.
 */
export function parseMcpServers(value: unknown, scope: McpScope, file: string): ParsedServers {
  const servers: ScopedServer[] = [];
  const problems: string[] = [];
  if (value === undefined) return { servers, problems };
  if (!isObject(value)) {
    return { servers, problems: [`Ignored "mcpServers" in "${file}": it is not an object`] };
  }
  for (const [name, entry] of Object.entries(value)) {
    const config = serverConfig(entry);
    if (typeof config === "string") {
      problems.push(`Ignored MCP server "${name}" in "${file}": ${config}`);
      continue;
    }
    servers.push({ name, scope, file, config });
  }
  return { servers, problems };
}

/** The checked entry, or what is wrong with it. */
function serverConfig(entry: unknown): McpServerConfig | string {
  if (!isObject(entry)) return "its entry is not an object";
  const type = entry.type === "streamable-http" ? "http" : entry.type ?? "stdio";
  const timeout = typeof entry.timeout === "number" && entry.timeout >= 1000
    ? { timeout: entry.timeout }
    : {};
  if (type === "stdio") {
    if (entry.command === undefined && typeof entry.url === "string") {
      return 'it has a "url" but no "type" (write "type": "http" or "sse")';
    }
    if (typeof entry.command !== "string" || entry.command === "") {
      return '"command" must be a non-empty string';
    }
    const args = entry.args ?? [];
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) {
      return '"args" must be a list of strings';
    }
    const env = stringRecord(entry.env, "env");
    if (typeof env === "string") return env;
    return { type: "stdio", command: entry.command, args, env, ...timeout };
  }
  if (type === "http" || type === "sse") {
    if (typeof entry.url !== "string" || !URL.canParse(entry.url)) {
      return '"url" must be a URL';
    }
    const headers = stringRecord(entry.headers, "headers");
    if (typeof headers === "string") return headers;
    return { type, url: entry.url, headers, ...timeout };
  }
  if (type === "sdk") return 'its type "sdk" needs an Agent SDK host, which rein is not';
  if (type === "ws") return 'rein has no WebSocket transport (type "ws")';
  return `its type ${JSON.stringify(type)} is not stdio, http or sse`;
}

function stringRecord(value: unknown, field: string): Record<string, string> | string {
  if (value === undefined) return {};
  if (!isObject(value) || !Object.values(value).every((v) => typeof v === "string")) {
    return `"${field}" must be an object of strings`;
  }
  return value as Record<string, string>;
}

/**
 * The servers in force, by name, as Claude Code merges its scopes: a name defined in several
 * wins whole (no field merge) from local over project over user; `--mcp-config` servers
 * (`dynamic`) are added to them (with `strict`, they are the only ones). Pure.
 */
export function mergeScopes(
  scopes: {
    local: readonly ScopedServer[];
    project: readonly ScopedServer[];
    user: readonly ScopedServer[];
    dynamic: readonly ScopedServer[];
  },
  strict: boolean,
): ScopedServer[] {
  const order = strict
    ? [scopes.dynamic]
    : [scopes.dynamic, scopes.local, scopes.project, scopes.user];
  const byName = new Map<string, ScopedServer>();
  for (const list of order) {
    for (const server of list) if (!byName.has(server.name)) byName.set(server.name, server);
  }
  return [...byName.values()];
}

/**
 * `config` with `${VAR}` and `${VAR:-default}` expanded in its command, args, env, url and
 * headers, as Claude Code does; a variable that is unset and has no default stays as written,
 * and is named in `missing`. Pure over `env`.
 */
export function expandServer(
  config: McpServerConfig,
  env: (name: string) => string | undefined,
): { config: McpServerConfig; missing: string[] } {
  const missing = new Set<string>();
  const expand = (text: string) =>
    text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, name, fallback) => {
      const value = env(name);
      if (value !== undefined && value !== "") return value;
      if (fallback !== undefined) return fallback;
      if (value === "") return "";
      missing.add(name);
      return whole;
    });
  const record = (values: Record<string, string>) =>
    Object.fromEntries(Object.entries(values).map(([key, value]) => [key, expand(value)]));
  const expanded: McpServerConfig = config.type === "stdio"
    ? {
      ...config,
      command: expand(config.command),
      args: config.args.map(expand),
      env: record(config.env),
    }
    : { ...config, url: expand(config.url), headers: record(config.headers) };
  return { config: expanded, missing: [...missing] };
}

/** How a server is reached, for the log and `/mcp`: its command line or its URL. */
export function serverTarget(config: McpServerConfig): string {
  return config.type === "stdio" ? [config.command, ...config.args].join(" ") : config.url;
}

/** The transport of an entry. */
export function transportOf(config: McpServerConfig): McpTransport {
  return config.type;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
