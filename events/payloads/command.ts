import type { EventTable } from "./_payload.ts";

/** What one `` !`cmd` `` line of a command ran, and what it printed (inlined in the prompt). */
export interface CommandShellRun {
  command: string;
  /** The output as the bash tool gives it (stdout and stderr, an exit code line when not 0). */
  output: string;
  isError: boolean;
}

/**
 * The person ran a custom slash command (`/name args`, in the REPL or as `-p`): recorded before
 * its prompt, from outside the loop, with what was read and run to expand it, so replay feeds it
 * and never reads or runs anything again.
 */
export interface CommandInvoked {
  name: string;
  /** What followed the name (`$ARGUMENTS`). */
  arguments: string;
  /** The command file it came from. */
  path: string;
  /** Rules its `allowed-tools` pre-approves while its turn runs, as written. */
  allowedTools: string[];
  /** Its `` !`cmd` `` lines, in order, as they ran. */
  shell: CommandShellRun[];
  /** The files its `@path` references inlined (absolute paths). */
  files: string[];
  /** The prompt it became. */
  prompt: string;
  /** Set when it could not run (a `` !`cmd` `` no rule allows): then no prompt follows. */
  refused?: string;
}

/** Custom slash commands (`.claude/commands/`). */
export interface CommandEvents {
  "command.invoked": CommandInvoked;
}

/** The event types of CommandEvents, for validation on read. */
export const COMMAND_EVENTS: EventTable<CommandEvents> = {
  "command.invoked": true,
};
