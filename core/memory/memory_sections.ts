import { dirname, relative } from "../../events/posix_path.ts";
import type { RecordedFile } from "../../events/event_types.ts";
import type { SystemSection } from "../request/system_prompt.ts";
import { INDEX_PROMPT_LINES, INSTRUCTIONS_SOURCE, MEMORY_INDEX_SOURCE } from "./memory_files.ts";

const INSTRUCTIONS_INTRO = [
  "Project instructions, from the files below (the user's own first, then the repository's",
  "from its root down to the workspace, personal ones last). Follow them: where they differ",
  "from the defaults above they win, and a later file wins over an earlier one.",
].join("\n");

/**
 * The system prompt sections of a session's recorded memory files: the project instructions
 * (stability 0, id `instructions`: each non-empty file under a line naming its path, in recorded
 * order) and the memory index (stability 1, id `memory`: how the agent keeps memory and the
 * index's first {@link INDEX_PROMPT_LINES} lines). A section appears only when its files were
 * recorded, so sessions recorded before memory existed get none. Paths inside the workspace are
 * shown relative to it. Pure.
 */
export function memorySections(
  files: readonly RecordedFile[],
  workspace: string,
): SystemSection[] {
  const sections: SystemSection[] = [];
  const instructions = files.filter((f) => f.source === INSTRUCTIONS_SOURCE && f.text.trim());
  if (instructions.length > 0) {
    const parts = instructions.map((file) =>
      `Contents of ${shownPath(file.path, workspace)}:\n\n${file.text.trimEnd()}`
    );
    sections.push({
      id: "instructions",
      stability: 0,
      text: [INSTRUCTIONS_INTRO, ...parts].join("\n\n"),
    });
  }
  const index = files.findLast((f) => f.source === MEMORY_INDEX_SOURCE);
  if (index) sections.push({ id: "memory", stability: 1, text: memoryText(index, workspace) });
  return sections;
}

/** `path` relative to the workspace when it lies inside it, else as is. Pure. */
export function shownPath(path: string, workspace: string): string {
  const inside = relative(workspace, path);
  return inside === "" || inside.startsWith("..") || inside.startsWith("/") ? path : inside;
}

function memoryText(index: RecordedFile, workspace: string): string {
  const directory = shownPath(dirname(index.path), workspace);
  const file = shownPath(index.path, workspace);
  const explanation = [
    `Memory: you keep notes that last across sessions in ${directory}/. MEMORY.md there is the`,
    "index, one line per topic file saying what it holds; the topic files beside it hold the",
    "details. Read a topic file with read_file when its topic comes up. When you learn something",
    "worth keeping for later sessions (how the user likes to work, facts about the project that",
    "the code does not show, a mistake not to repeat), save it in a topic file with write_file or",
    "edit_file and keep its line in MEMORY.md current. Keep entries short, correct stale ones,",
    `and never save secrets. Only the first ${INDEX_PROMPT_LINES} lines of MEMORY.md are shown.`,
  ].join("\n");
  const lines = index.text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0) {
    return `${explanation}\n\n${file} does not exist yet or is empty.`;
  }
  const shown = lines.slice(0, INDEX_PROMPT_LINES).join("\n");
  const hidden = lines.length - INDEX_PROMPT_LINES;
  const more = hidden > 0
    ? `\n\n(${hidden} more lines of ${file} are not shown: read the file for them, and move ` +
      "details out of the index into topic files.)"
    : "";
  return `${explanation}\n\nContents of ${file}:\n\n${shown}${more}`;
}
