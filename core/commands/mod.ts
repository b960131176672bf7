/**
 * Custom slash commands (`.claude/commands/`): found, recorded, parsed, expanded, and what their
 * (and skills') `allowed-tools` pre-approve while their turn runs.
 *
 * @module
 */
export * from "./command.ts";
export * from "./command_grants.ts";
export * from "./command_render.ts";
export * from "./command_set.ts";
export * from "./commands_mechanism.ts";
export * from "./expand_command.ts";
export * from "./read_command_files.ts";
