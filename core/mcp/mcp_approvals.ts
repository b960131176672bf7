import { resolve } from "../../events/posix_path.ts";
import type { McpFiles, McpSetup } from "./read_mcp_config.ts";
import { writeAtomically } from "../files/write_atomically.ts";

/** The approvals of a project's `.mcp.json` servers, as Claude Code keeps them. */
export interface McpApprovals {
  /** `enableAllProjectMcpServers` (the settings). */
  all: boolean;
  /** `enabledMcpjsonServers`: the settings', and the project's entry in `~/.claude.json`. */
  names: readonly string[];
}

/**
 * The approvals in force: the settings' (a repository's own count only in a trusted folder: an
 * untrusted one's were dropped with its settings) and those the person gave in this project
 * (`~/.claude.json` → `projects[<workspace>].enabledMcpjsonServers`). Pure.
 */
export function mcpApprovals(files: McpFiles, settings: Record<string, unknown>): McpApprovals {
  const projects = files.claudeJson?.projects;
  const entry = isObject(projects) ? projects[files.workspace] : undefined;
  return {
    all: settings.enableAllProjectMcpServers === true,
    names: [
      ...strings(settings.enabledMcpjsonServers),
      ...strings(isObject(entry) ? entry.enabledMcpjsonServers : undefined),
    ],
  };
}

/** The project servers of `setup` that would start but nobody approved yet. Pure. */
export function unapprovedServers(setup: McpSetup, approvals: McpApprovals): string[] {
  if (approvals.all) return [];
  return setup.servers.filter((server) =>
    server.entry.scope === "project" && server.entry.enabled &&
    !approvals.names.includes(server.entry.name)
  ).map((server) => server.entry.name);
}

/**
 * Remember the person's answer about a project server in `~/.claude.json`, as Claude Code does:
 * `projects[<workspace>].enabledMcpjsonServers` (yes) or `disabledMcpjsonServers` (no), the name
 * taken out of the other list; the rest of the file is kept, written through a temporary file
 * renamed over it (`<file>.rein.tmp`, which the launcher lets rein write).
 */
export async function rememberMcpChoice(
  path: string,
  workspace: string,
  name: string,
  approved: boolean,
): Promise<void> {
  let json: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await Deno.readTextFile(path));
    if (!isObject(parsed)) throw new Error(`Cannot use "${path}": its top level is not an object`);
    json = parsed;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const key = resolve(workspace);
  const projects = isObject(json.projects) ? json.projects : {};
  const entry = isObject(projects[key]) ? projects[key] : {};
  const [into, out] = approved
    ? ["enabledMcpjsonServers", "disabledMcpjsonServers"]
    : ["disabledMcpjsonServers", "enabledMcpjsonServers"];
  const updated = {
    ...entry,
    [into]: [...new Set([...strings(entry[into]), name])],
    [out]: strings(entry[out]).filter((other) => other !== name),
  };
  // Defined as data, so a folder named "__proto__" stays an ordinary key.
  Object.defineProperty(projects, key, {
    value: updated,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  json.projects = projects;
  await writeAtomically(path, `${JSON.stringify(json, null, 2)}\n`);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
