import type { FileHandle } from "node:fs/promises";
import type { Envelope, FileSeen } from "../../events/event_types.ts";
import { contentHash } from "./_content_hash.ts";
import { hasFeature } from "../settings/session_features.ts";
import type { Projection } from "../state/projection.ts";
import type { State } from "../state/state.ts";
import type { ToolCallContext } from "./tool.ts";

/**
 * The session feature of read before edit: in a session recorded with it, edit_file (and
 * write_file over an existing file) refuses a file its agent has not read, or that changed on
 * disk since, as Claude Code's Edit and Write do. Sessions recorded before it replay without.
 */
export const READ_BEFORE_EDIT = "read_before_edit";

/** Claude Code's words when the agent has not read the file (its Edit and Write tools'). */
export const NOT_READ_MESSAGE = "File has not been read yet. Read it first before writing to it.";

/** Claude Code's words when the file changed on disk since the agent read it. */
export const MODIFIED_MESSAGE = "File has been modified since read, either by the user or by a " +
  "linter. Read it again before attempting to write it.";

/** What each agent last saw of each file: session id → agent id → absolute path → the file. */
export type FileReadsSlice = Record<string, Record<string, Record<string, FileSeen>>>;

/**
 * The files each agent has seen, folded from `tool.completed` events that carry a `file` (a
 * successful read_file, edit_file or write_file in a session with read before edit). Per agent:
 * a subagent's reads are its own, as in Claude Code, where a subagent starts with no reads.
 */
export const fileReadsProjection: Projection<FileReadsSlice> = {
  key: "file_reads",
  canHandle: ["tool.completed"],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    if (event.type !== "tool.completed") return slice;
    const { file, isError } = event.data;
    if (file === undefined || isError) return slice;
    const session = slice[event.session] ??= {};
    (session[event.agent] ??= {})[file.path] = file;
    return slice;
  },
};

/** Whether the calling agent's session checks reads before edits. Pure over the view. */
export function readBeforeEditOn(context: Pick<ToolCallContext, "view" | "session">): boolean {
  return hasFeature(context.view(), context.session, READ_BEFORE_EDIT);
}

/** What the calling agent last saw of `path` (absolute), if the fold is registered. Pure. */
export function seenFile(state: State, session: string, agent: string, path: string) {
  const slice = state.extensions[fileReadsProjection.key] as FileReadsSlice | undefined;
  return slice?.[session]?.[agent]?.[path];
}

/** A file as it is on disk now, from its handle's stat (and its content's hash, when known). */
export function fileSeen(
  path: string,
  stats: { mtime: Date | null; size: number },
  hash?: string,
): FileSeen {
  return { path, mtimeMs: stats.mtime?.getTime() ?? 0, size: stats.size, ...hash ? { hash } : {} };
}

/**
 * Why the calling agent may not change the existing file at `path` (absolute), whose stat now is
 * `now`: Claude Code's "not read yet" when its agent never read it (nor wrote it) in this session,
 * its "modified since read" when its modification time or size differ from what the agent saw,
 * unless the agent saw the whole file and `content` (the file's bytes now, read only then) still
 * hashes the same, as Claude Code lets an edit through when only the time changed. Undefined when
 * the change may go ahead, and always in a session without read before edit.
 */
export async function readBeforeEditRefusal(
  context: Pick<ToolCallContext, "view" | "session" | "agent">,
  now: FileSeen,
  content?: () => Promise<Uint8Array>,
): Promise<string | undefined> {
  if (!readBeforeEditOn(context)) return undefined;
  const seen = seenFile(context.view(), context.session, context.agent, now.path);
  if (seen === undefined) return NOT_READ_MESSAGE;
  if (seen.mtimeMs === now.mtimeMs && seen.size === now.size) return undefined;
  if (seen.hash !== undefined && seen.size === now.size && content !== undefined) {
    try {
      if (contentHash(await content()) === seen.hash) return undefined;
    } catch {
      // Unreadable now: changed, as far as the agent can tell.
    }
  }
  return MODIFIED_MESSAGE;
}

/**
 * What the calling agent has seen of the file at `path` after writing `written` through `handle`
 * (its own write counts as a full read, as in Claude Code), as a result's `file`; nothing in a session
 * without read before edit, or when the handle cannot be read.
 */
export async function seenAfterWrite(
  context: Pick<ToolCallContext, "view" | "session">,
  path: string,
  handle: FileHandle,
  written: Uint8Array,
): Promise<{ file?: FileSeen }> {
  if (!readBeforeEditOn(context)) return {};
  try {
    return { file: fileSeen(path, await handle.stat(), contentHash(written)) };
  } catch {
    return {};
  }
}
