import { dirname, join } from "../../events/posix_path.ts";

/** Bytes of a spilled output served at most; the rest is left out, and the response says so. */
export const OUTPUT_LIMIT = 4 * 1024 * 1024;

/** A plain file name: no separator, no leading dot, no `..`. */
const PLAIN_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/**
 * The spilled output `name` of the log at `log` (a file of the `outputs` folder beside it, where
 * rein keeps a tool result too large for the context: `.rein/outputs/<call>.txt` beside
 * `.rein/events.jsonl`), as plain text, its first {@link OUTPUT_LIMIT} bytes at most. 404 for
 * anything else: a name that is not a plain file name, a file that is not there or not a regular
 * file, and one whose real path (symlinks followed) is outside that folder. Reads only.
 */
export async function spilledOutput(log: string, name: string): Promise<Response> {
  const missing = () => new Response(`No spilled output "${name}"\n`, { status: 404 });
  if (!PLAIN_NAME.test(name)) return missing();
  let file: Deno.FsFile | undefined;
  try {
    const folder = await Deno.realPath(join(dirname(log), "outputs"));
    const path = await Deno.realPath(join(folder, name));
    if (dirname(path) !== folder) return missing();
    file = await Deno.open(path, { read: true });
    const info = await file.stat();
    if (!info.isFile) return missing();
    const size = Math.min(info.size, OUTPUT_LIMIT);
    const bytes = new Uint8Array(size);
    let read = 0;
    while (read < size) {
      const got = await file.read(bytes.subarray(read));
      if (got === null) break;
      read += got;
    }
    const cut = info.size > OUTPUT_LIMIT
      ? `\n\n[Only the first ${OUTPUT_LIMIT} of ${info.size} bytes are shown]\n`
      : "";
    return new Response(
      new Blob([bytes.subarray(0, read), cut]),
      {
        headers: {
          "content-type": "text/plain; charset=utf-8",
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
          "content-security-policy": "sandbox",
        },
      },
    );
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return missing();
    }
    throw error;
  } finally {
    file?.close();
  }
}
