import type { AnyTool } from "../tools/tool.ts";

/** The name of the tool that starts subagents. */
export const TASK_TOOL = "task";

/** Claude Code's tool names as rein names them (TaskUpdate: every tool that changes a task). */
const CLAUDE_CODE_TO_REIN: ReadonlyMap<string, string | readonly string[]> = new Map<
  string,
  string | readonly string[]
>([
  ["Bash", "bash"],
  ["Read", "read_file"],
  ["Write", "write_file"],
  ["Edit", "edit_file"],
  ["MultiEdit", "edit_file"],
  ["Glob", "glob"],
  ["Grep", "grep"],
  ["LS", "glob"],
  ["CronCreate", "schedule_cron"],
  ["CronList", "list_crons"],
  ["CronDelete", "cancel_cron"],
  ["Task", TASK_TOOL],
  ["Agent", TASK_TOOL],
  ["Skill", "load_skill"],
  ["TodoWrite", "todo_write"],
  ["TaskCreate", "create_task"],
  ["TaskList", "list_tasks"],
  ["TaskGet", "get_task"],
  ["TaskUpdate", ["update_task", "claim_task", "complete_task"]],
]);

/**
 * A definition's `tools` as rein's names: Claude Code's names are translated (`Read` →
 * `read_file`), rein's and MCP names kept, duplicates dropped; a rule's specifier
 * (`Bash(git *)`) is dropped, since a pool holds whole tools. Pure.
 */
export function reinToolNames(names: readonly string[]): string[] {
  const tools = names.flatMap((name) => {
    const bare = name.replace(/\(.*\)$/s, "").trim();
    return CLAUDE_CODE_TO_REIN.get(bare) ?? bare;
  });
  return [...new Set(tools)];
}

/**
 * A subagent's pool: the tools of `tools` (its parent's pool) that `allowed` names, or every
 * tool but `task` when `allowed` is absent. `task` stays out unless named, so a child starts no
 * children by default. Pure.
 */
export function childTools(
  tools: readonly AnyTool[],
  allowed: readonly string[] | undefined,
): AnyTool[] {
  if (allowed === undefined) return tools.filter((tool) => tool.name !== TASK_TOOL);
  const names = new Set(allowed);
  return tools.filter((tool) => names.has(tool.name));
}
