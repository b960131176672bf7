import type { RecordedFile } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";
import {
  byteLength,
  INDEX_PROMPT_LINES,
  INSTRUCTIONS_SOURCE,
  kilobytes,
  MEMORY_INDEX_SOURCE,
} from "./memory_files.ts";
import { type MemoryNotes, memoryProjection } from "./memory_projection.ts";
import { shownPath } from "./memory_sections.ts";
import { pathRulesOf } from "./path_rules.ts";

/**
 * What `/memory` prints: the instruction files and the memory index a session loaded, where from
 * and how big, and the `#` notes saved during it. Reads the session's recorded files, not the
 * disk: it shows what the model sees. Pure.
 */
export function memoryReport(state: State, session: string): string {
  const view = state.sessions.byId[session];
  if (!view) return `No session "${session}" in the log`;
  const instructions = view.files.filter((f) => f.source === INSTRUCTIONS_SOURCE);
  const index = view.files.findLast((f) => f.source === MEMORY_INDEX_SOURCE);
  if (instructions.length === 0 && index === undefined && pathRulesOf(view.files).length === 0) {
    return "No memory files were recorded for this session";
  }
  const shown = (path: string) => shownPath(path, view.workspace);
  const total = instructions.reduce((sum, f) => sum + byteLength(f.text), 0);
  const lines = [
    "Memory as read when the session started or last resumed (edits apply at the next resume).",
    instructions.length === 0
      ? "Project instructions: none found"
      : `Project instructions: ${count(instructions.length, "file")}, ${kilobytes(total)}`,
    ...instructions.map((f) => `  ${shown(f.path)}  ${size(f)}`),
  ];
  const pathRules = pathRulesOf(view.files);
  if (pathRules.length > 0) {
    lines.push(`Rules for some files (they join when such a file is read): ${pathRules.length}`);
    lines.push(...pathRules.map((r) => `  ${shown(r.path)}  (${r.globs.join(", ")})`));
  }
  if (index) lines.push(`Memory index: ${shown(index.path)}  ${indexSize(index)}`);
  const notes = (state.extensions[memoryProjection.key] as MemoryNotes | undefined)?.[session];
  if (notes && notes.notes.length > 0) {
    lines.push(`Notes saved in this session: ${notes.notes.length}`);
    lines.push(...notes.notes.map((n) => `  - ${n.text}  (${shown(n.path)})`));
  }
  return lines.join("\n");
}

function size(file: RecordedFile): string {
  return `${kilobytes(byteLength(file.text))}, ${count(lineCount(file.text), "line")}`;
}

function indexSize(file: RecordedFile): string {
  const lines = lineCount(file.text);
  if (lines === 0) return "(empty or not created yet)";
  const inPrompt = lines <= INDEX_PROMPT_LINES
    ? "all in the prompt"
    : `the first ${INDEX_PROMPT_LINES} in the prompt`;
  return `${size(file)} (${inPrompt})`;
}

function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
