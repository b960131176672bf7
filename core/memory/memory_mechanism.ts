import type { RecordedFile, ReinEvent } from "../../events/event_types.ts";
import type { SystemSection } from "../request/system_prompt.ts";
import type { Mechanism } from "../mechanism.ts";
import type { State } from "../state/state.ts";
import { memorySections } from "./memory_sections.ts";
import { type MemoryNotes, memoryProjection, NOTE_REMINDER_SOURCE } from "./memory_projection.ts";
import { type MemoryOptions, readMemoryFiles } from "./read_memory_files.ts";

/**
 * Memory (s09): reads the project instruction files and the memory index when a session starts
 * or resumes (recorded with it), puts them in the system prompt from the recorded copies, and
 * tells an agent about `#` notes saved during its session (`memory.noted`, recorded by the REPL
 * from outside the loop) with a reminder before its next model call.
 */
export function memoryMechanism(options: MemoryOptions = {}): Mechanism {
  return {
    name: "memory",
    projection: memoryProjection,
    fedTypes: ["memory.noted"],
    readFiles: (place) => readMemoryFiles(place, options),
    sections(scope) {
      const view = scope.state.sessions.byId[scope.session];
      return view ? sectionsOf(view.files, view.workspace) : [];
    },
    stages: {
      beforeModel: (context) =>
        Promise.resolve(noteReminders(context.view(), context.session, context.agent)),
    },
  };
}

/** The sections of each recorded list of files (lists are replaced, never changed), made once. */
const made = new WeakMap<
  readonly RecordedFile[],
  { workspace: string; sections: SystemSection[] }
>();

function sectionsOf(files: readonly RecordedFile[], workspace: string): SystemSection[] {
  const known = made.get(files);
  if (known?.workspace === workspace) return known.sections;
  const sections = memorySections(files, workspace);
  made.set(files, { workspace, sections });
  return sections;
}

/**
 * A reminder of the notes saved for `agent` since its last memory reminder, if any: they are in
 * the memory index on disk, but the system prompt shows the index as it was when the session
 * started, and it is not rebuilt within a session (its cached prefix stays put). Pure.
 */
export function noteReminders(state: State, session: string, agent: string): ReinEvent[] {
  const notes = (state.extensions[memoryProjection.key] as MemoryNotes | undefined)?.[session];
  if (!notes) return [];
  const mine = notes.notes.filter((n) => n.agent === agent);
  const fresh = mine.slice(notes.reminded[agent] ?? 0);
  if (fresh.length === 0) return [];
  const text = [
    fresh.length === 1
      ? "The user saved a note to memory; it is in the file now:"
      : "The user saved notes to memory; they are in the files now:",
    ...fresh.map((n) => `- ${n.text}  (${n.path})`),
  ].join("\n");
  return [{ type: "reminder.added", data: { source: NOTE_REMINDER_SOURCE, text } }];
}
