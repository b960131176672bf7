import { join, normalize } from "../../events/posix_path.ts";
import { isRecord } from "../settings/is_record.ts";
import type { PluginParts } from "../files/plugin_root.ts";

/** Where a plugin keeps its manifest, under its folder. */
export const MANIFEST_PATH = ".claude-plugin/plugin.json";

/** A plugin's manifest as rein uses it: who it is and where its parts are beyond the defaults. */
export interface PluginManifest {
  name: string;
  version?: string;
  description?: string;
  /** `author.name` (or `author` when it is a text). */
  author?: string;
  /** The paths it adds, absolute (see `PluginParts`). */
  parts: PluginParts;
  /** Whether it names MCP servers (`mcpServers`), which rein does not run yet. */
  mcpServers: boolean;
}

/** A manifest read, or why the plugin cannot be used: one line naming the file and the member. */
export type ParsedManifest = { ok: true; manifest: PluginManifest } | {
  ok: false;
  message: string;
};

/**
 * Why `name` cannot name a plugin, or undefined: its parts are called `<name>:<part>`, so it may
 * hold no `:`, no `/` or `\`, no `..`, no white space, and may not be empty or begin with `.`.
 * Pure.
 */
export function badPluginName(name: string): string | undefined {
  if (name === "") return "it is empty";
  if (/[:/\\]/.test(name)) return 'it holds a ":", "/" or "\\"';
  if (name.includes("..") || name.startsWith(".")) return 'it begins with "." or holds ".."';
  if (/[\s\p{C}]/u.test(name)) return "it holds white space or a control character";
  return undefined;
}

/**
 * Parse the manifest at `path` (`<root>/.claude-plugin/plugin.json`) whose text is `text`, as
 * Claude Code documents it: `name` (required), `version`, `description`, `author` (an object
 * with `name`, or a text), and the paths `commands`, `agents`, `skills`, `hooks` (a text or a
 * list of them, each `./`-relative to the plugin's folder and inside it; `hooks` may also be the
 * hooks object itself) and `mcpServers` (a path or an object). Other members are ignored. Pure;
 * never throws: a manifest that cannot be used comes back with one line naming the file and the
 * member.
 */
export function parseManifest(path: string, text: string, root: string): ParsedManifest {
  const fail = (why: string): ParsedManifest => ({
    ok: false,
    message: `Skipped the plugin at "${root}": "${path}" ${why}`,
  });
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return fail(`is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(json)) return fail("is not a JSON object");
  const name = json["name"];
  if (typeof name !== "string") return fail(`has no "name" text, found ${shown(name)}`);
  const bad = badPluginName(name);
  if (bad !== undefined) return fail(`"name" ${JSON.stringify(name)} cannot name a plugin: ${bad}`);
  const texts: Record<string, string> = {};
  for (const key of ["version", "description"]) {
    const value = json[key];
    if (value === undefined) continue;
    if (typeof value !== "string") return fail(`"${key}" is not a text, found ${shown(value)}`);
    texts[key] = value;
  }
  const author = json["author"];
  const authorName = typeof author === "string"
    ? author
    : isRecord(author) && typeof author["name"] === "string"
    ? author["name"]
    : undefined;
  if (author !== undefined && authorName === undefined) {
    return fail(`"author" is neither an object with a "name" text nor a text`);
  }
  const parts: { -readonly [K in keyof PluginParts]: string[] } = {};
  for (const key of ["commands", "agents", "skills", "hooks"] as const) {
    const value = json[key];
    if (value === undefined) continue;
    if (key === "hooks" && isRecord(value)) {
      parts.hooks = [path];
      continue;
    }
    const paths = pathsOf(value, root);
    if (typeof paths === "string") return fail(`"${key}" ${paths}`);
    parts[key] = paths;
  }
  const mcp = json["mcpServers"];
  // Not run (rein has no MCP yet), so not held to the "./" rule the parts rein reads are.
  const mcpShapes = typeof mcp === "string" || isRecord(mcp) ||
    (Array.isArray(mcp) && mcp.every((item) => typeof item === "string" || isRecord(item)));
  if (mcp !== undefined && !mcpShapes) {
    return fail(`"mcpServers" is neither an object nor a path, found ${shown(mcp)}`);
  }
  return {
    ok: true,
    manifest: {
      name,
      ...texts,
      ...(authorName === undefined ? {} : { author: authorName }),
      parts,
      mcpServers: mcp !== undefined,
    },
  };
}

/** `value` (a path or a list of them) as absolute paths inside `root`, or why it is not. */
function pathsOf(value: unknown, root: string): string[] | string {
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list)) return `is neither a path nor a list of paths, found ${shown(value)}`;
  const paths: string[] = [];
  for (const item of list) {
    if (typeof item !== "string") return `holds ${shown(item)}, not a path`;
    if (!item.startsWith("./")) return `path ${JSON.stringify(item)} does not begin with "./"`;
    const relative = normalize(item);
    if (relative === ".." || relative.startsWith("../")) {
      return `path ${JSON.stringify(item)} leads out of the plugin's folder`;
    }
    paths.push(join(root, relative).replace(/\/+$/, ""));
  }
  return paths;
}

/** A value as a notice quotes it: JSON, cut to 60 characters. Pure. */
function shown(value: unknown): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
