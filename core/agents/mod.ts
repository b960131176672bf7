/**
 * Subagents (s06): the `task` tool, the built-in and `.claude/agents/*.md` subagent types, and
 * the child agents' pools and prompts.
 *
 * @module
 */
export * from "./agent_definition.ts";
export * from "./agent_set.ts";
export * from "./agents_mechanism.ts";
export * from "./built_in_agents.ts";
export * from "./child_tools.ts";
export * from "./plan_spawn.ts";
export * from "./read_agent_files.ts";
export * from "./spawn_limits.ts";
export * from "./task_tool.ts";
