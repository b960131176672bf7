import { join, resolve } from "../../events/posix_path.ts";
import type { McpServerEntry } from "../../events/event_types.ts";
import {
  expandServer,
  type McpServerConfig,
  mergeScopes,
  type ParsedServers,
  parseMcpServers,
  type ScopedServer,
  serverTarget,
} from "./mcp_config.ts";

/** A server in force: what the log records of it, and its expanded entry (live only). */
export interface ConfiguredServer {
  entry: McpServerEntry;
  config: McpServerConfig;
}

/** The MCP configuration of a run: its servers in order, and what could not be read. */
export interface McpSetup {
  servers: ConfiguredServer[];
  problems: string[];
  /** Whether the workspace is trusted (an agent definition's inline servers start only then). */
  trusted?: boolean;
}

/** What {@link readMcpConfig} reads. */
export interface McpConfigPlace {
  workspace: string;
  /** `~/.claude.json` (user and local scopes); undefined without a home. */
  claudeJson: string | undefined;
  /** `--mcp-config` values, each a file or a JSON text, in order. */
  mcpConfig: readonly string[];
  /** `--strict-mcp-config`: only the `--mcp-config` servers. */
  strict: boolean;
  /** Whether the person trusts the workspace: its `.mcp.json` servers start only then. */
  trusted: boolean;
  /** `disabledMcpjsonServers` of the settings in force (their merged value). */
  disabled: readonly string[];
  env: (name: string) => string | undefined;
  /** The folder `--mcp-config` files are relative to (the caller's). */
  cwd: string;
}

/** What the configuration files say, read (before trust is decided). */
export interface McpFiles {
  workspace: string;
  claudeJsonPath: string | undefined;
  strict: boolean;
  claudeJson: Record<string, unknown> | undefined;
  projectFile: Record<string, unknown> | undefined;
  dynamic: ScopedServer[];
  problems: string[];
}

/**
 * The MCP servers of a run, as Claude Code reads them: `--mcp-config` (files or JSON, each
 * `{"mcpServers": {…}}`), then `~/.claude.json`'s `projects[<workspace>].mcpServers` (local),
 * the workspace's `.mcp.json` (project) and `~/.claude.json`'s `mcpServers` (user), a name
 * defined twice taken whole from the first; `--strict-mcp-config` keeps the first alone. A
 * project server is kept from starting in an untrusted folder and when `disabledMcpjsonServers`
 * (settings, or the project's entry in `~/.claude.json`) names it. `${VAR}` references are
 * expanded; an unset one is reported. Never throws: what cannot be read is in `problems`.
 */
export async function readMcpConfig(place: McpConfigPlace): Promise<McpSetup> {
  return mcpSetup(await readMcpFiles(place), place);
}

/** The files {@link readMcpConfig} reads, read at once (no decision taken yet). Never throws. */
export async function readMcpFiles(
  place: Pick<McpConfigPlace, "workspace" | "claudeJson" | "mcpConfig" | "strict" | "cwd">,
): Promise<McpFiles> {
  const problems: string[] = [];
  const workspace = resolve(place.workspace);
  const [claudeJson, projectFile, dynamic] = await Promise.all([
    place.strict || place.claudeJson === undefined
      ? undefined
      // Claude Code's file can be large: parsed only when it says something about MCP.
      : readJson(
        place.claudeJson,
        problems,
        false,
        /"(mcpServers|enabledMcpjsonServers|disabledMcpjsonServers)"/,
      ),
    place.strict ? undefined : readJson(join(workspace, ".mcp.json"), problems),
    Promise.all(place.mcpConfig.map((given) => dynamicServers(given, place.cwd, problems))),
  ]);
  return {
    workspace,
    claudeJsonPath: place.claudeJson,
    strict: place.strict,
    claudeJson,
    projectFile,
    dynamic: dynamic.flat(),
    problems,
  };
}

/** The servers in force once trust is decided, from the files read. Pure over `env`. */
export function mcpSetup(
  files: McpFiles,
  decided: Pick<McpConfigPlace, "trusted" | "disabled" | "env">,
): McpSetup {
  const problems = [...files.problems];
  const { workspace, claudeJson } = files;
  const scoped = (result: ParsedServers) => {
    problems.push(...result.problems);
    return result.servers;
  };
  const project = isObject(claudeJson?.projects) ? claudeJson.projects[workspace] : undefined;
  const local = isObject(project) ? project : {};
  const path = files.claudeJsonPath ?? "";
  const merged = mergeScopes({
    dynamic: files.dynamic,
    local: scoped(parseMcpServers(local.mcpServers, "local", path)),
    project: scoped(
      parseMcpServers(files.projectFile?.mcpServers, "project", join(workspace, ".mcp.json")),
    ),
    user: scoped(parseMcpServers(claudeJson?.mcpServers, "user", path)),
  }, files.strict);
  const disabled = new Set([...decided.disabled, ...strings(local.disabledMcpjsonServers)]);
  const servers = merged.map((server): ConfiguredServer => {
    const { config, missing } = expandServer(server.config, decided.env);
    if (missing.length > 0) {
      problems.push(
        `MCP server "${server.name}" in "${server.file}": ${
          missing.map((name) => `\${${name}}`).join(", ")
        } not set, left as written`,
      );
    }
    const entry: McpServerEntry = {
      name: server.name,
      scope: server.scope,
      transport: config.type,
      target: serverTarget(config),
      enabled: true,
    };
    if (server.scope === "project" && !decided.trusted) {
      entry.enabled = false;
      entry.reason = "the folder is not trusted";
    } else if (server.scope === "project" && disabled.has(server.name)) {
      entry.enabled = false;
      entry.reason = "disabled (disabledMcpjsonServers)";
    }
    return { entry, config };
  });
  return { servers, problems, trusted: decided.trusted };
}

/** The servers of one `--mcp-config` value: JSON text when it starts with `{`, else a file. */
async function dynamicServers(given: string, cwd: string, problems: string[]) {
  const inline = given.trimStart().startsWith("{");
  const file = inline ? "--mcp-config" : resolve(cwd, given);
  let json: Record<string, unknown> | undefined;
  if (inline) {
    try {
      const parsed: unknown = JSON.parse(given);
      json = isObject(parsed) ? parsed : undefined;
      if (json === undefined) problems.push("Ignored --mcp-config: its JSON is not an object");
    } catch (error) {
      problems.push(`Ignored --mcp-config: its JSON does not parse (${messageOf(error)})`);
    }
  } else {
    json = await readJson(file, problems, true);
  }
  const parsed = parseMcpServers(json?.mcpServers, "dynamic", file);
  problems.push(...parsed.problems);
  return parsed.servers;
}

/** A JSON object file; undefined (and a problem, unless it is missing and optional) otherwise. */
async function readJson(
  path: string,
  problems: string[],
  required = false,
  /** What the text must hold to be worth parsing (absent: always parsed). */
  worth?: RegExp,
): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound && !required) return undefined;
    problems.push(`Cannot read MCP servers from "${path}": ${messageOf(error)}`);
    return undefined;
  }
  if (worth !== undefined && !worth.test(text)) return undefined;
  try {
    const json: unknown = JSON.parse(text);
    if (isObject(json)) return json;
    problems.push(`Cannot read MCP servers from "${path}": its top level is not an object`);
  } catch (error) {
    problems.push(`Cannot read MCP servers from "${path}": ${messageOf(error)}`);
  }
  return undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
