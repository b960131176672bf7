import { dirname } from "../../events/posix_path.ts";
import type { MemoryNoted } from "../../events/event_types.ts";
import { memoryIndexPath, type MemoryOptions } from "./read_memory_files.ts";

/**
 * Save a `#` note from the REPL: append `- text` as a line of the memory index (MEMORY.md, created
 * with its directory when missing). The leading `#` and spaces may be left on; line breaks become
 * spaces. Returns what to record as `memory.noted`: the index's path and the note as added
 * (without the `- `). An effect; throws when the note is empty or the file cannot be written.
 */
export async function saveNote(
  text: string,
  place: { workspace: string },
  options: MemoryOptions = {},
): Promise<MemoryNoted> {
  const note = text.replace(/^\s*#\s*/, "").replace(/\s*\n\s*/g, " ").trim();
  if (note === "") throw new Error("Cannot save an empty note");
  const path = memoryIndexPath(place.workspace, options);
  await Deno.mkdir(dirname(path), { recursive: true });
  let before = "";
  try {
    before = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const separator = before === "" || before.endsWith("\n") ? "" : "\n";
  await Deno.writeTextFile(path, `${separator}- ${note}\n`, { append: true });
  return { path, text: note };
}
