import { createUniqueFile } from "./_log_files.ts";
import type { ScanEnd } from "./_scan_log.ts";

/**
 * Repair the torn tail a scan of the log at `path` (open as `file`, locked) found: back the file
 * up beside itself (`<path>.torn-<stamp>.bak`, never over an existing file), truncate `file` to
 * the last newline, and return the one-line notice that says so. Throws on I/O errors.
 */
export async function repairTornTail(
  file: Deno.FsFile,
  path: string,
  stamp: string,
  { end, lastLine, tail }: ScanEnd,
): Promise<string> {
  const backup = await createUniqueFile(`${path}.torn-${stamp}`, ".bak");
  await Deno.copyFile(path, backup);
  await file.truncate(end);
  return `Repaired torn tail of "${path}": line ${lastLine + 1} (${tail} bytes) had no final ` +
    `newline, left by an interrupted append; backed the file up to "${backup}" and truncated ` +
    `it to ${end} bytes`;
}
