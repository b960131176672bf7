import { isRecord } from "./is_record.ts";
import { dirname, join } from "../../events/posix_path.ts";

/**
 * Adds `rule` to `permissions.allow` in the workspace's `.claude/settings.local.json` (where
 * Claude Code saves "don't ask again" answers), creating the file if needed and keeping every
 * other key as it was. The file is replaced atomically (a temporary file renamed over it). A file
 * that is not a JSON object is left untouched and the error names it. Returns the file's path.
 */
export async function addAllowRule(workspace: string, rule: string): Promise<string> {
  const path = join(workspace, ".claude", "settings.local.json");
  let settings: Record<string, unknown> = {};
  try {
    const text = await Deno.readTextFile(path);
    const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
    if (!isRecord(parsed)) throw new Error("its top level is not an object");
    settings = parsed;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`Cannot save the rule "${rule}" in "${path}": ${why}`);
    }
  }
  const permissions = isRecord(settings["permissions"]) ? settings["permissions"] : {};
  const allow = Array.isArray(permissions["allow"]) ? permissions["allow"] : [];
  if (!allow.includes(rule)) allow.push(rule);
  settings["permissions"] = { ...permissions, allow };
  await Deno.mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(temporary, `${JSON.stringify(settings, null, 2)}\n`);
  await Deno.rename(temporary, path);
  return path;
}
