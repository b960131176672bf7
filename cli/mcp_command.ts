import { join } from "../events/posix_path.ts";
import type { McpScope } from "../events/event_types.ts";
import {
  type McpServerConfig,
  mergeScopes,
  parseMcpServers,
  type ScopedServer,
  serverTarget,
} from "../core/mcp/mcp_config.ts";
import { claudeJsonPath, readTrust } from "../core/settings/trust.ts";
import { isRecord } from "../core/settings/is_record.ts";
import type { CommandIo } from "./io.ts";
import { writeAtomically } from "../core/files/write_atomically.ts";

/**
 * `rein mcp list | get | add | add-json | remove`: the MCP servers of a project, edited where
 * Claude Code keeps them (`claude mcp`): project scope in `<project>/.mcp.json`, user scope in
 * `~/.claude.json`'s `mcpServers`, local scope (the default of `add`) in `~/.claude.json`'s
 * `projects[<project>].mcpServers`. Every other key of those files is kept as it was, in order;
 * each write is atomic (a temporary file beside it, renamed over it, the file's mode kept).
 * Nothing here starts a server.
 *
 * @module
 */

/** The scopes `rein mcp` edits, as `claude mcp -s` names them. */
export type EditScope = Exclude<McpScope, "dynamic" | "agent">;

/** Where a command's configuration is: the project folder and `~/.claude.json`. */
export interface McpPlace {
  /** The project's folder (absolute): its `.mcp.json`, and its key in `~/.claude.json`. */
  project: string;
  /** `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when set); undefined without a home. */
  claudeJson: string | undefined;
}

/** What `rein mcp add` is given. */
export interface McpAddFlags {
  scope?: string | undefined;
  transport?: string | undefined;
  /** `-e KEY=VALUE`, each. */
  env?: string[] | undefined;
  /** `-H "Name: value"`, each. */
  header?: string[] | undefined;
}

const SCOPES: readonly EditScope[] = ["local", "project", "user"];
const SCOPE_LABELS: Record<EditScope, string> = {
  local: "Local config (private to you in this project)",
  project: "Project config (shared via .mcp.json)",
  user: "User config (available in all your projects)",
};
const NAME = /^[A-Za-z0-9_-]+$/;

/** The place of a run: `project` and `~/.claude.json` as the environment names it. */
export function mcpPlace(project: string, home?: string, configDir?: string): McpPlace {
  return { project, claudeJson: claudeJsonPath(home, configDir) };
}

/**
 * `rein mcp list`: each server in force for the project (a name defined in several scopes taken
 * from local over project over user, as Claude Code merges them), with its scope, its command
 * line or URL as written, and whether a session here starts it (a project server only in a
 * trusted folder and unless `disabledMcpjsonServers` names it). Servers are not started.
 */
export async function mcpListCommand(place: McpPlace, io: CommandIo): Promise<number> {
  const read = await readScopes(place);
  for (const problem of read.problems) io.stderr.write(`${problem}\n`);
  const servers = mergeScopes({ ...read.scopes, dynamic: [] }, false);
  if (servers.length === 0) {
    io.stdout.write(
      "No MCP servers configured. Add one with: rein mcp add NAME -- COMMAND [ARGS…]\n",
    );
    return 0;
  }
  for (const server of servers) {
    io.stdout.write(
      `${server.name}: ${describe(server.config)} (${server.scope}) - ${await serverStatus(
        server,
        place,
        read,
      )}\n`,
    );
  }
  return 0;
}

/** `rein mcp get NAME`: the server in force of that name, every field, and how to remove it. */
export async function mcpGetCommand(name: string, place: McpPlace, io: CommandIo): Promise<number> {
  const read = await readScopes(place);
  for (const problem of read.problems) io.stderr.write(`${problem}\n`);
  const server = mergeScopes({ ...read.scopes, dynamic: [] }, false)
    .find((s) => s.name === name);
  if (server === undefined) throw new Error(`No MCP server named "${name}" for ${place.project}`);
  const { config } = server;
  const lines = [
    `${name}:`,
    `  Scope: ${SCOPE_LABELS[server.scope as EditScope]}`,
    `  File: ${server.file}`,
    `  Status: ${await serverStatus(server, place, read)}`,
    `  Type: ${config.type}`,
  ];
  if (config.type === "stdio") {
    lines.push(`  Command: ${config.command}`, `  Args: ${config.args.join(" ")}`);
    const env = Object.entries(config.env);
    if (env.length > 0) {
      lines.push("  Environment:", ...env.map(([key, value]) => `    ${key}=${value}`));
    }
  } else {
    lines.push(`  URL: ${config.url}`);
    const headers = Object.entries(config.headers);
    if (headers.length > 0) {
      lines.push("  Headers:", ...headers.map(([key, value]) => `    ${key}: ${value}`));
    }
  }
  if (config.timeout !== undefined) lines.push(`  Timeout: ${config.timeout}ms`);
  const shadowed = SCOPES.filter((scope) =>
    scope !== server.scope && read.scopes[scope].some((s) => s.name === name)
  );
  if (shadowed.length > 0) {
    lines.push(`  Also defined in: ${shadowed.join(", ")} (not used: ${server.scope} wins)`);
  }
  lines.push(
    "",
    `To remove this server, run: rein mcp remove "${name}" --scope ${server.scope}`,
  );
  io.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

/**
 * `rein mcp add [-s SCOPE] [-t stdio|http|sse] [-e K=V…] [-H "K: V"…] NAME COMMAND-OR-URL
 * [ARGS…]`: writes the entry as `claude mcp add` does (`type`, `command`, `args`, `env` for
 * stdio; `type`, `url`, and `headers` when given, for http and sse) in the scope's file (local by
 * default). A bad name, scope, transport, variable, header or URL, or a name the scope already
 * has, is refused and nothing is written.
 */
export async function mcpAddCommand(
  name: string,
  commandOrUrl: string,
  args: readonly string[],
  flags: McpAddFlags,
  place: McpPlace,
  io: CommandIo,
): Promise<number> {
  const scope = checkScope(flags.scope ?? "local");
  checkName(name);
  const transport = flags.transport ?? "stdio";
  let entry: Record<string, unknown>;
  if (transport === "stdio") {
    if (flags.header !== undefined && flags.header.length > 0) {
      throw new Error('Invalid option "--header": headers are for http and sse servers');
    }
    entry = { type: "stdio", command: commandOrUrl, args: [...args], env: envOf(flags.env) };
  } else if (transport === "http" || transport === "sse") {
    if (!URL.canParse(commandOrUrl)) throw new Error(`Invalid URL "${commandOrUrl}"`);
    if (args.length > 0) {
      throw new Error(
        `Unexpected arguments after the URL of a ${transport} server: "${args.join(" ")}"`,
      );
    }
    if (flags.env !== undefined && flags.env.length > 0) {
      throw new Error('Invalid option "--env": environment variables are for stdio servers');
    }
    const headers = headersOf(flags.header);
    entry = {
      type: transport,
      url: commandOrUrl,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  } else {
    throw new Error(`Invalid transport "${transport}": must be stdio, http or sse`);
  }
  const file = await addEntry(place, scope, name, entry);
  const what = transport === "stdio"
    ? `stdio MCP server ${name} with command: ${[commandOrUrl, ...args].join(" ")}`
    : `${transport === "http" ? "HTTP" : "SSE"} MCP server ${name} with URL: ${commandOrUrl}`;
  io.stdout.write(`Added ${what} to ${scope} config\nFile modified: ${file}\n`);
  return 0;
}

/**
 * `rein mcp add-json [-s SCOPE] NAME JSON`: writes the entry as given (after checking it as a
 * session reads it: the same errors Claude Code's reader reports) in the scope's file.
 */
export async function mcpAddJsonCommand(
  name: string,
  json: string,
  flags: { scope?: string | undefined },
  place: McpPlace,
  io: CommandIo,
): Promise<number> {
  const scope = checkScope(flags.scope ?? "local");
  checkName(name);
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch (error) {
    throw new Error(`Invalid JSON for MCP server "${name}": ${messageOf(error)}`);
  }
  if (!isRecord(entry)) throw new Error(`Invalid JSON for MCP server "${name}": not an object`);
  const parsed = parseMcpServers({ [name]: entry }, scope, "the JSON given");
  if (parsed.problems.length > 0) throw new Error(parsed.problems.join("; "));
  const file = await addEntry(place, scope, name, entry);
  const type = parsed.servers[0]?.config.type ?? "stdio";
  io.stdout.write(`Added ${type} MCP server ${name} to ${scope} config\nFile modified: ${file}\n`);
  return 0;
}

/**
 * `rein mcp remove [-s SCOPE] NAME`: takes the entry out of the scope's file; without a scope,
 * out of the one scope that has it (a name in several must be given a scope, as in Claude Code).
 */
export async function mcpRemoveCommand(
  name: string,
  flags: { scope?: string | undefined },
  place: McpPlace,
  io: CommandIo,
): Promise<number> {
  let scope: EditScope;
  if (flags.scope !== undefined) {
    scope = checkScope(flags.scope);
  } else {
    const read = await readScopes(place);
    const found = SCOPES.filter((s) =>
      read.raw[s] !== undefined && Object.hasOwn(read.raw[s], name)
    );
    if (found.length === 0) {
      throw new Error(`No MCP server named "${name}" in any scope for ${place.project}`);
    }
    if (found.length > 1) {
      throw new Error(
        `MCP server "${name}" is in several scopes (${found.join(", ")}): ` +
          "say which with --scope",
      );
    }
    scope = found[0] as EditScope;
  }
  const file = await editScope(place, scope, (servers, where) => {
    if (!Object.hasOwn(servers, name)) {
      throw new Error(`No MCP server named "${name}" in the ${scope} scope (${where})`);
    }
    delete servers[name];
  });
  io.stdout.write(`Removed MCP server ${name} from ${scope} config\nFile modified: ${file}\n`);
  return 0;
}

/** The three scopes' servers as read, their raw `mcpServers` objects, and what could not be read. */
interface ScopesRead {
  scopes: Record<EditScope, ScopedServer[]>;
  raw: Partial<Record<EditScope, Record<string, unknown>>>;
  problems: string[];
  /** `projects[<project>].disabledMcpjsonServers` of `~/.claude.json`. */
  disabled: string[];
}

async function readScopes(place: McpPlace): Promise<ScopesRead> {
  const problems: string[] = [];
  const projectFile = join(place.project, ".mcp.json");
  const [claude, project] = await Promise.all([
    place.claudeJson === undefined ? undefined : readObject(place.claudeJson, problems),
    readObject(projectFile, problems),
  ]);
  const local = projectEntry(claude?.json, place.project);
  const claudeFile = place.claudeJson ?? "";
  const raws: Record<EditScope, unknown> = {
    local: local?.["mcpServers"],
    project: project?.json["mcpServers"],
    user: claude?.json["mcpServers"],
  };
  const files: Record<EditScope, string> = {
    local: claudeFile,
    project: projectFile,
    user: claudeFile,
  };
  const scopes = {} as Record<EditScope, ScopedServer[]>;
  const raw: ScopesRead["raw"] = {};
  for (const scope of SCOPES) {
    const parsed = parseMcpServers(raws[scope], scope, files[scope]);
    problems.push(...parsed.problems);
    scopes[scope] = parsed.servers;
    const value = raws[scope];
    if (isRecord(value)) raw[scope] = value;
  }
  const disabled = local?.["disabledMcpjsonServers"];
  return {
    scopes,
    raw,
    problems,
    disabled: Array.isArray(disabled) ? disabled.filter((d) => typeof d === "string") : [],
  };
}

/** Whether a session in the project starts the server, as core/mcp decides it. */
async function serverStatus(
  server: ScopedServer,
  place: McpPlace,
  read: ScopesRead,
): Promise<string> {
  if (server.scope !== "project") return "enabled";
  if (!(await readTrust(place.claudeJson, place.project)).trusted) {
    return "not started: the folder is not trusted (rein trust)";
  }
  if (read.disabled.includes(server.name)) return "disabled (disabledMcpjsonServers)";
  return "enabled (project server, folder trusted)";
}

/** The command line or URL of an entry, as written, and its transport when remote. */
function describe(config: McpServerConfig): string {
  return config.type === "stdio"
    ? serverTarget(config)
    : `${serverTarget(config)} (${config.type})`;
}

/** Adds `entry` under `name` in the scope's file; refuses a name the scope has. */
function addEntry(
  place: McpPlace,
  scope: EditScope,
  name: string,
  entry: Record<string, unknown>,
): Promise<string> {
  return editScope(place, scope, (servers, where) => {
    if (Object.hasOwn(servers, name)) {
      throw new Error(`MCP server "${name}" already exists in the ${scope} scope (${where})`);
    }
    Object.defineProperty(servers, name, {
      value: entry,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  });
}

/**
 * Read-modify-write of the `mcpServers` object of a scope: `edit` changes it in place (or
 * throws, and nothing is written). Returns the file written.
 */
async function editScope(
  place: McpPlace,
  scope: EditScope,
  edit: (servers: Record<string, unknown>, file: string) => void,
): Promise<string> {
  const file = scope === "project" ? join(place.project, ".mcp.json") : place.claudeJson;
  if (file === undefined) throw new Error("Cannot find ~/.claude.json: HOME is not set");
  const problems: string[] = [];
  const read = await readObject(file, problems);
  if (problems.length > 0) throw new Error(problems.join("; "));
  const json: Record<string, unknown> = read?.json ?? {};
  let holder = json;
  if (scope === "local") {
    const projects = isRecord(json["projects"]) ? json["projects"] : {};
    const entry = isRecord(projects[place.project]) ? projects[place.project] : {};
    defineKey(projects, place.project, entry);
    json["projects"] = projects;
    holder = entry as Record<string, unknown>;
  }
  const current = holder["mcpServers"];
  if (current !== undefined && !isRecord(current)) {
    throw new Error(`Cannot edit "mcpServers" in "${file}": it is not an object`);
  }
  const servers = current ?? {};
  edit(servers, file);
  holder["mcpServers"] = servers;
  const indent = read?.text.match(/^\{\n( +|\t)"/)?.[1] ?? 2;
  const ending = read === undefined || read.text.endsWith("\n") ? "\n" : "";
  await writeAtomically(file, `${JSON.stringify(json, null, indent)}${ending}`);
  return file;
}

/** A JSON object file and its text; undefined when missing; a problem when it is not one. */
async function readObject(
  path: string,
  problems: string[],
): Promise<{ json: Record<string, unknown>; text: string } | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    problems.push(`Cannot read "${path}": ${messageOf(error)}`);
    return undefined;
  }
  try {
    const json: unknown = JSON.parse(text);
    if (isRecord(json)) return { json, text };
    problems.push(`Cannot read "${path}": its top level is not an object`);
  } catch (error) {
    problems.push(`Cannot read "${path}": ${messageOf(error)}`);
  }
  return undefined;
}

function projectEntry(
  json: Record<string, unknown> | undefined,
  project: string,
): Record<string, unknown> | undefined {
  const projects = json?.["projects"];
  if (!isRecord(projects) || !Object.hasOwn(projects, project)) return undefined;
  const entry = projects[project];
  return isRecord(entry) ? entry : undefined;
}

/** Sets `key` as data, so a key named "__proto__" stays an ordinary key. */
function defineKey(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function checkScope(scope: string): EditScope {
  if ((SCOPES as readonly string[]).includes(scope)) return scope as EditScope;
  throw new Error(`Invalid scope "${scope}": must be local, project or user`);
}

function checkName(name: string): void {
  if (!NAME.test(name)) {
    throw new Error(
      `Invalid name "${name}": names can only contain letters, numbers, hyphens and underscores`,
    );
  }
}

function envOf(given: readonly string[] | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const item of given ?? []) {
    const at = item.indexOf("=");
    if (at <= 0) throw new Error(`Invalid environment variable "${item}": write KEY=VALUE`);
    defineKey(env, item.slice(0, at), item.slice(at + 1));
  }
  return env;
}

function headersOf(given: readonly string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const item of given ?? []) {
    const at = item.indexOf(":");
    const key = item.slice(0, at).trim();
    if (at <= 0 || key === "") throw new Error(`Invalid header "${item}": write "Name: value"`);
    defineKey(headers, key, item.slice(at + 1).trim());
  }
  return headers;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
