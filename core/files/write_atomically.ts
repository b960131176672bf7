import { dirname } from "../../events/posix_path.ts";

/** The temporary file {@link writeAtomically} writes beside `path` (the launcher grants it). */
export function atomicTemporary(path: string): string {
  return `${path}.rein.tmp`;
}

/**
 * Writes `text` to `path` so that a reader sees the old file or the new one, never a part: into
 * {@link atomicTemporary} beside it, then renamed over it, with the file's mode kept (0600 for a
 * new one: the files rein writes this way, `~/.claude.json` and `.mcp.json`, may hold account
 * state). The folder is made only when missing (rein may be allowed to write the file and not its
 * folder). On failure the temporary file is removed and the error thrown.
 */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const mode = await Deno.stat(path).then((info) => info.mode ?? 0o600, () => 0o600);
  const folderThere = await Deno.stat(dirname(path)).then(() => true, () => false);
  if (!folderThere) await Deno.mkdir(dirname(path), { recursive: true });
  const temporary = atomicTemporary(path);
  try {
    await Deno.writeTextFile(temporary, text, { mode: mode & 0o777 });
    await Deno.chmod(temporary, mode & 0o7777);
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}
