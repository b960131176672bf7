import { isAbsolute, relative, resolve } from "../../events/posix_path.ts";
import type { ToolFacts } from "../tools/tool.ts";
import { knownToolNames, type ToolNames } from "../tools/tool_names.ts";

/** A tool call as Claude Code's hooks see it. */
export interface ClaudeToolCall {
  /** Claude Code's name for the tool (`Bash`, `Read`, …), or the name unchanged (MCP tools). */
  tool_name: string;
  /** The input with Claude Code's field names; `file_path` and search paths absolute. */
  tool_input: Record<string, unknown>;
}

/**
 * A rein tool call as Claude Code's hooks expect it: Claude Code's tool name and field names,
 * and paths made absolute against `cwd` (the workspace root rein's relative paths start
 * from), as the tool's facts say (`names`: rein's tools by default). Fields Claude Code does not
 * know pass through; MCP tools and tools rein does not know pass through unchanged. Pure.
 */
export function toClaudeCall(
  reinTool: string,
  reinInput: Record<string, unknown>,
  cwd: string,
  names: ToolNames = knownToolNames(),
): ClaudeToolCall {
  const facts = names.facts(reinTool);
  if (facts === undefined) return { tool_name: reinTool, tool_input: { ...reinInput } };
  const paths = new Set(facts.pathFields);
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(reinInput)) {
    input[claudeField(facts, key)] = paths.has(key) ? absolutePath(value, cwd) : value;
  }
  return {
    tool_name: facts.claudeNames?.[0] ?? reinTool,
    tool_input: { ...input, ...facts.claudeFixed },
  };
}

/** Claude Code's name for rein's input field `field` of a tool. */
function claudeField(facts: ToolFacts, field: string): string {
  return facts.claudeFields && Object.hasOwn(facts.claudeFields, field)
    ? facts.claudeFields[field] as string
    : field;
}

/**
 * The inverse of {@linkcode toClaudeCall}: a tool input a hook wrote (`updatedInput`) in rein's
 * field names. An absolute path inside `cwd` becomes relative to it (`.` for `cwd` itself); a
 * path outside it stays absolute, and a relative one stays as written. Unknown fields pass
 * through. Pure.
 */
export function fromClaudeInput(
  reinTool: string,
  claudeInput: Record<string, unknown>,
  cwd: string,
  names: ToolNames = knownToolNames(),
): Record<string, unknown> {
  const facts = names.facts(reinTool);
  if (facts === undefined) return { ...claudeInput };
  const toRein = new Map(
    Object.entries(facts.claudeFields ?? {}).map(([rein, claude]) => [
      claude,
      rein,
    ]),
  );
  const paths = new Set(facts.pathFields);
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(claudeInput)) {
    if (facts.claudeFixed !== undefined && Object.hasOwn(facts.claudeFixed, key)) continue;
    const field = toRein.get(key) ?? key;
    input[field] = paths.has(field) ? reinPath(value, cwd) : value;
  }
  return input;
}

/**
 * Every name a hook matcher is tested against for a tool: Claude Code's name and aliases, then
 * rein's (`["Bash", "bash"]`, `["Task", "Agent", "task"]`, `["Edit", "MultiEdit", "edit_file"]`).
 * `tool` may be either name; any other name (MCP tools) is the only one. Pure.
 */
export function hookMatchNames(tool: string, names: ToolNames = knownToolNames()): string[] {
  return names.matchNames(tool);
}

function absolutePath(value: unknown, cwd: string): unknown {
  return typeof value === "string" && value !== "" ? resolve(cwd, value) : value;
}

function reinPath(value: unknown, cwd: string): unknown {
  if (typeof value !== "string" || !isAbsolute(value)) return value;
  const inside = relative(cwd, value);
  if (inside === "") return ".";
  const outside = inside === ".." || inside.startsWith("../") || isAbsolute(inside);
  return outside ? value : inside;
}
