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
 * the person's in `~/.claude/commands/`, then each plugin's, named `<plugin>:<name>`). A file that cannot be parsed is left out with a
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
    if (file.plugin !== undefined) {
      const { name } = parsed.command;
      parsed.command = { ...parsed.command, name: `${file.plugin}:${name}`, scope: "plugin" };
      parsed.command.plugin = file.plugin;
      parsed.command.namespace = pluginNamespace(file.path);
    }
    const taken = byName.get(parsed.command.name);
    if (taken) {
      diagnostics.push(
        `Skipped the command at "${file.path}": the command "/${taken.name}" at ` +
          `"${taken.path}" has the same name and takes precedence (project commands over ` +
          `~/.claude commands over plugins')`,
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

/**
 * The command `/name` runs among `commands`: the one of that name, else the one plugin command
 * whose name without its `<plugin>:` is `name` (Claude Code's plugin prefix is optional while no
 * other command has the name); undefined when none, or several plugins have it. Pure.
 */
export function findCommand(commands: readonly Command[], name: string): Command | undefined {
  const exact = commands.find((command) => command.name === name);
  if (exact !== undefined || name.includes(":")) return exact;
  const bare = commands.filter((command) =>
    command.plugin !== undefined && command.name === `${command.plugin}:${name}`
  );
  return bare.length === 1 ? bare[0] : undefined;
}

/** The subfolders a plugin's command sits in under its `commands/` (`review`), or "". Pure. */
function pluginNamespace(path: string): string {
  const at = path.lastIndexOf("/commands/");
  if (at < 0) return "";
  const rest = path.slice(at + "/commands/".length);
  const slash = rest.lastIndexOf("/");
  return slash < 0 ? "" : rest.slice(0, slash);
}
