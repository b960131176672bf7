/**
 * The marketplace folders the person's own settings name, which the agent must read to use the
 * plugins they enable (core/plugins/enabled_plugins.ts). Zero imports beyond the launcher's own
 * helpers.
 *
 * @module
 */
import { parentOf, resolvePath } from "./_launch_args.ts";

/**
 * The folders of the marketplaces `extraKnownMarketplaces` names in the settings text `text` (the
 * person's `~/.claude/settings.json`) that are on disk: a `directory` source's folder, a `file`
 * source's marketplace folder (above its `.claude-plugin/`), each as core/plugins reads it
 * (`~/` from `home`, a relative path from `workspace`). None for a text that is not a JSON object
 * or names no such marketplace. Pure; never throws.
 */
export function marketplaceFolders(
  text: string | undefined,
  home: string,
  workspace: string,
): string[] {
  if (text === undefined || !text.includes("extraKnownMarketplaces")) return [];
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return [];
  }
  const declared = record(record(json)?.["extraKnownMarketplaces"]);
  const folders: string[] = [];
  for (const entry of Object.values(declared ?? {})) {
    const source = record(record(entry)?.["source"]);
    const kind = source?.["source"];
    const path = source?.["path"];
    if ((kind !== "directory" && kind !== "file") || typeof path !== "string" || path === "") {
      continue;
    }
    const absolute = path.startsWith("~/") && home.startsWith("/")
      ? resolvePath(home, path.slice(2))
      : resolvePath(workspace, path);
    if (kind === "directory") {
      folders.push(absolute);
      continue;
    }
    const folder = parentOf(absolute);
    folders.push(folder.endsWith("/.claude-plugin") ? parentOf(folder) : folder);
  }
  return folders;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}
