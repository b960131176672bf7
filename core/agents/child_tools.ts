import type { AnyTool } from "../tools/tool.ts";
import { knownToolNames, type ToolNames } from "../tools/tool_names.ts";

/** The name of the tool that starts subagents. */
export const TASK_TOOL = "task";

/**
 * A definition's `tools` as rein's names: Claude Code's names and aliases are translated by the
 * tools' facts (`Read` → `read_file`, `TaskUpdate` → every tool that changes a task; `known`:
 * rein's tools by default), rein's and other names (MCP) kept, duplicates dropped; a rule's
 * specifier (`Bash(git *)`) is dropped, since a pool holds whole tools. Pure.
 */
export function reinToolNames(
  names: readonly string[],
  known: ToolNames = knownToolNames(),
): string[] {
  const tools = names.flatMap((name) => {
    const bare = name.replace(/\(.*\)$/s, "").trim();
    const named = known.toolsNamed(bare);
    return named.length > 0 ? named : [bare];
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
