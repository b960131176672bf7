import type { RecordedFile, ReinEvent } from "../../events/event_types.ts";
import type { SystemSection } from "../request/system_prompt.ts";
import type { Mechanism } from "../mechanism.ts";
import type { State } from "../state/state.ts";
import { resolve } from "../../events/posix_path.ts";
import type { PendingCall } from "../state/conversation.ts";
import { agentCwd } from "../state/agent_place.ts";
import { memorySections, shownPath } from "./memory_sections.ts";
import { pathRulesOf, ruleMatches, ruleReminderText } from "./path_rules.ts";
import {
  type MemoryNotes,
  memoryProjection,
  NOTE_REMINDER_SOURCE,
  PATH_RULE_REMINDER,
} from "./memory_projection.ts";
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
      // A file read that a `.claude/rules/` rule with `paths:` names brings the rule in.
      afterCall: (context, call, run) =>
        run.completed.isError || run.completed.outcome !== undefined
          ? Promise.resolve([])
          : pathRuleReminders(context.view(), context.session, context.agent, call),
    },
  };
}

/**
 * The reminders of the path rules (`.claude/rules/` files with `paths:`, recorded with the
 * session) that `call` brings in: a `read_file` of a file one of them names, relative to the
 * workspace, for each rule not yet brought in during the session (decided from the log:
 * `rulesShown`), as Claude Code loads such a rule when a matching file is read.
 */
export async function pathRuleReminders(
  state: State,
  session: string,
  agent: string,
  call: PendingCall,
): Promise<ReinEvent[]> {
  if (call.name !== "read_file") return [];
  const view = state.sessions.byId[session];
  const rules = view ? pathRulesOf(view.files) : [];
  if (!view || rules.length === 0) return [];
  const input = (call.input ?? {}) as { path?: unknown; file_path?: unknown };
  const written = typeof input.path === "string" ? input.path : input.file_path;
  if (typeof written !== "string" || written === "") return [];
  const file = resolve(agentCwd(view, agent, view.workspace), written);
  const shown = new Set(
    (state.extensions[memoryProjection.key] as MemoryNotes | undefined)?.[session]?.rulesShown,
  );
  const fresh = rules.filter((rule) => !shown.has(rule.path));
  if (fresh.length === 0) return [];
  // @ts-types="@types/picomatch"
  const { default: picomatch } = await import("picomatch");
  const isMatch = (glob: string, path: string) => {
    try {
      return picomatch(glob, { dot: true })(path);
    } catch {
      return false;
    }
  };
  return fresh
    .filter((rule) => ruleMatches(rule.globs, view.workspace, file, isMatch))
    .map((rule) => ({
      type: "reminder.added" as const,
      data: {
        source: `${PATH_RULE_REMINDER}${rule.path}`,
        text: ruleReminderText(
          rule,
          shownPath(rule.path, view.workspace),
          shownPath(file, view.workspace),
        ),
      },
    }));
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
