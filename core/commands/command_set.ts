import type { RecordedFile } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";
import { type Command, parseCommand } from "./command.ts";

/** The `source` of the files the commands mechanism records. */
export const COMMANDS_SOURCE = "commands";

/** The commands of a set of command files, and why any of them was left out. */
export interface CommandSet {
  items: Command[];
  diagnostics: string[];
}

/**
 * The commands of `files` (the recorded command files, in precedence order: the project's, then
 * the person's in `~/.claude/commands/`). A file that cannot be parsed is left out with a
 * diagnostic naming its path; so is a command whose name an earlier file already took (a project
 * command shadows a user command of the same name, as in Claude Code). Pure.
 */
export function commandSet(files: readonly RecordedFile[], workspace: string): CommandSet {
  const items: Command[] = [];
  const diagnostics: string[] = [];
  const byName = new Map<string, Command>();
  for (const file of files) {
    if (file.source !== COMMANDS_SOURCE) continue;
    const parsed = parseCommand(file.path, file.text, workspace);
    if (!parsed.ok) {
      diagnostics.push(parsed.message);
      continue;
    }
    const taken = byName.get(parsed.command.name);
    if (taken) {
      diagnostics.push(
        `Skipped the command at "${file.path}": the command "/${taken.name}" at ` +
          `"${taken.path}" has the same name and takes precedence (project commands over ` +
          `~/.claude commands)`,
      );
      continue;
    }
    byName.set(parsed.command.name, parsed.command);
    items.push(parsed.command);
  }
  return { items, diagnostics };
}

const parsedSets = new WeakMap<readonly RecordedFile[], Command[]>();

/**
 * The commands `session` recorded at its start or its last resume (none for an unknown session
 * or a log without recorded commands). Pure; parsed once per recorded list of files.
 */
export function commandsOf(state: State, session: string): readonly Command[] {
  const view = state.sessions.byId[session];
  const files = view?.files;
  if (!view || !files || files.length === 0) return [];
  let commands = parsedSets.get(files);
  if (!commands) {
    commands = commandSet(files, view.workspace).items;
    parsedSets.set(files, commands);
  }
  return commands;
}
