/**
 * What the launcher grants for MCP servers: the hosts of the remote (http, sse) servers the agent
 * will reach, read as core/mcp reads the configuration (`--mcp-config`, `~/.claude.json`'s user
 * and local servers, the workspace's `.mcp.json` only when the folder is trusted). stdio servers
 * need nothing: rein starts them through `setsid`, which it may run already. Zero imports beyond
 * the launcher's own helpers: the launcher must start fast, and reads nothing more when no server
 * is configured (a file without `mcpServers` is not parsed).
 *
 * @module
 */
import { parentOf, resolvePath } from "./_launch_args.ts";

/** Where the MCP configuration is, and how to read it. */
export interface McpLaunchPlace {
  workspace: string;
  /** The caller's folder (`--mcp-config` files are relative to it). */
  caller: string;
  /** `--mcp-config` values, as given. */
  mcpConfigs: readonly string[];
  strict: boolean;
  /** `--trust` was given. */
  trustFlag: boolean;
  /** `~/.claude.json`, if there is a home. */
  claudeJson: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  readText(path: string): string | undefined;
}

/**
 * The `--allow-net` entries (`host` or `host:port`) of the remote MCP servers configured, and the
 * `--mcp-config` files the agent must read. Pure but for `readText`.
 */
export function mcpLaunchNeeds(place: McpLaunchPlace): { hosts: string[]; files: string[] } {
  const files: string[] = [];
  const entries: unknown[] = [];
  for (const given of place.mcpConfigs) {
    if (given.trimStart().startsWith("{")) {
      entries.push(...serversOf(parse(given)));
      continue;
    }
    const file = resolvePath(place.caller, given);
    files.push(file);
    entries.push(...serversOf(parse(place.readText(file))));
  }
  if (!place.strict) {
    // Only a configuration with a remote server ("url") is parsed.
    const remote = (path: string | undefined) => {
      const text = path === undefined ? undefined : place.readText(path);
      return text?.includes('"url"') ? parse(text) : undefined;
    };
    const project = remote(resolvePath(place.workspace, ".mcp.json"));
    const claude = project !== undefined && !place.trustFlag
      ? parse(place.claudeJson === undefined ? undefined : place.readText(place.claudeJson))
      : remote(place.claudeJson);
    const projects = isObject(claude?.projects) ? claude.projects : {};
    entries.push(...serversOf(claude), ...serversOf(projects[place.workspace]));
    if (place.trustFlag || trusted(projects, place.workspace)) entries.push(...serversOf(project));
  }
  const hosts = new Set<string>();
  for (const entry of entries) {
    if (!isObject(entry) || typeof entry.url !== "string") continue;
    const host = hostOf(expand(entry.url, place.env));
    if (host !== undefined) hosts.add(host);
  }
  return { hosts: [...hosts], files };
}

/** Whether the workspace, or a folder above it, is trusted in `~/.claude.json`'s projects. */
function trusted(projects: Record<string, unknown>, workspace: string): boolean {
  for (let dir = workspace;; dir = parentOf(dir)) {
    const entry = projects[dir];
    if (isObject(entry) && entry.hasTrustDialogAccepted === true) return true;
    if (parentOf(dir) === dir) return false;
  }
}

function serversOf(json: unknown): unknown[] {
  if (!isObject(json) || !isObject(json.mcpServers)) return [];
  return Object.values(json.mcpServers);
}

/** `${VAR}` and `${VAR:-default}` expanded, as core/mcp expands them. */
function expand(text: string, env: Readonly<Record<string, string | undefined>>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (whole, name: string, fallback: string | undefined) => env[name] || fallback || whole,
  );
}

/** `host` or `host:port` of a URL, as `--allow-net` takes it; undefined when it does not parse. */
function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.port ? parsed.host : parsed.hostname;
  } catch {
    return undefined;
  }
}

function parse(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const json: unknown = JSON.parse(text);
    return isObject(json) ? json : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
