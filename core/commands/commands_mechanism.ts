import type { Mechanism } from "../mechanism.ts";
import { commandGrantsProjection, COMMANDS_FEATURE } from "./command_grants.ts";
import { renderCommandEvent } from "./command_render.ts";
import { readCommandFiles } from "./read_command_files.ts";

/**
 * Custom slash commands, Claude Code's `.claude/commands/**\/*.md` (project, then
 * `~/.claude/commands/`): the files are read when a session starts or resumes and recorded with
 * it; `/name args` (REPL or `-p`) expands the recorded text and is recorded as `command.invoked`
 * (fed: it comes from outside the loop) with what its `` !`cmd` `` lines printed and the files
 * it inlined, so replay reads and runs nothing. Its fold keeps what a command's (or a skill's)
 * `allowed-tools` pre-approves until the turn ends (see `grantedRules`, which the permission
 * gate consults). Its feature, `commands`, keeps older sessions deciding as they did.
 */
export function commandsMechanism(): Mechanism {
  return {
    name: "commands",
    feature: COMMANDS_FEATURE,
    fedTypes: ["command.invoked"],
    projection: commandGrantsProjection,
    render: renderCommandEvent,
    readFiles: (place) => readCommandFiles(place),
  };
}
