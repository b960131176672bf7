import { isAbsolute, join, relative, resolve } from "../../events/posix_path.ts";
import type { PermissionPathResolved } from "../../events/event_types.ts";
import { isInside } from "../files/is_inside.ts";
import { realPathWithLinks } from "../tools/workspace_path.ts";
import { knownToolNames } from "../tools/tool_names.ts";
import type { PermissionCall } from "./decide.ts";

/**
 * Where a file tool's path really leads, read from the disk now (live only: the gate records it
 * as `permission.path_resolved` and replay serves the record): the path as written made absolute
 * against `workspace`, its real path and the symbolic links' targets on the way that lie in the
 * workspace, all given under `workspace` as named (not its real root), so rules anchored there
 * match. Undefined when the call names no path, when the real path is the path as written and
 * no link was followed, or when the path cannot be resolved (the tool then refuses it).
 */
export async function resolveCallPath(
  call: PermissionCall,
  workspace: string,
): Promise<Omit<PermissionPathResolved, "callId"> | undefined> {
  // The tools with a path field (`ToolFacts.pathFields`; grep and glob: the folder searched).
  const path = writtenCallPath(call, workspace);
  if (path === undefined) return undefined;
  let root: string;
  let found: Awaited<ReturnType<typeof realPathWithLinks>>;
  try {
    root = await Deno.realPath(workspace);
    found = await realPathWithLinks(path);
  } catch {
    return undefined;
  }
  const named = (real: string) =>
    isInside(root, real) ? join(workspace, relative(root, real)) : real;
  const realPath = named(found.real);
  const via = found.via.map(named).filter((link) => link !== realPath && isInside(workspace, link));
  if (realPath === path && via.length === 0) return undefined;
  return { path, realPath, ...(via.length > 0 ? { via } : {}) };
}

/**
 * The path a file tool's call names, as written, made absolute against `workspace` (the `path`
 * {@linkcode resolveCallPath} records); undefined for a call that names none. Pure.
 */
export function writtenCallPath(call: PermissionCall, workspace: string): string | undefined {
  // The tools with a path field (`ToolFacts.pathFields`; grep and glob: the folder searched).
  if (!knownToolNames().hasPath(call.tool)) return undefined;
  const given = call.input["path"] ?? call.input["file_path"];
  if (typeof given !== "string" || given.trim() === "") return undefined;
  return isAbsolute(given) ? resolve(given) : resolve(workspace, given);
}
