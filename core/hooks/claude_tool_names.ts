import { isAbsolute, relative, resolve } from "node:path";

/** A tool call as Claude Code's hooks see it. */
export interface ClaudeToolCall {
  /** Claude Code's name for the tool (`Bash`, `Read`, …), or the name unchanged (MCP tools). */
  tool_name: string;
  /** The input with Claude Code's field names; `file_path` and search paths absolute. */
  tool_input: Record<string, unknown>;
}

interface ToolNames {
  /** Claude Code's name, then its aliases (Claude Code calls its subagent tool Task or Agent). */
  claude: readonly string[];
  /** rein field → Claude Code field, where they differ. */
  renamed: readonly (readonly [string, string])[];
  /** Claude Code fields that hold a path: absolute for hooks, workspace-relative for rein. */
  paths: readonly string[];
  /**
   * Fields Claude Code's tool has that say which of its uses this is (claim_task is TaskUpdate
   * with `status: "in_progress"`): added for hooks, dropped from an input a hook rewrote.
   */
  fixed?: Readonly<Record<string, unknown>>;
}

/**
 * rein's tools by name, with their Claude Code names and the input fields that differ, from the
 * schemas in core/tools/base_tool_definitions.json and the task tools' (core/tasks). task,
 * load_skill and todo_write have no rein schema yet; their fields pass through unchanged.
 */
const TOOLS: ReadonlyMap<string, ToolNames> = new Map([
  ["bash", { claude: ["Bash"], renamed: [], paths: [] }],
  ["read_file", { claude: ["Read"], renamed: [["path", "file_path"]], paths: ["file_path"] }],
  ["write_file", { claude: ["Write"], renamed: [["path", "file_path"]], paths: ["file_path"] }],
  ["edit_file", { claude: ["Edit"], renamed: [["path", "file_path"]], paths: ["file_path"] }],
  ["glob", { claude: ["Glob"], renamed: [], paths: ["path"] }],
  ["schedule_cron", { claude: ["CronCreate"], renamed: [], paths: [] }],
  ["list_crons", { claude: ["CronList"], renamed: [], paths: [] }],
  ["cancel_cron", { claude: ["CronDelete"], renamed: [], paths: [] }],
  [
    "grep",
    { claude: ["Grep"], renamed: [["ignore_case", "-i"], ["context", "-C"]], paths: ["path"] },
  ],
  ["task", { claude: ["Task", "Agent"], renamed: [], paths: [] }],
  ["load_skill", { claude: ["Skill"], renamed: [], paths: [] }],
  ["todo_write", { claude: ["TodoWrite"], renamed: [], paths: [] }],
  [
    "job_output",
    { claude: ["TaskOutput", "BashOutput"], renamed: [["job_id", "task_id"]], paths: [] },
  ],
  [
    "job_stop",
    { claude: ["TaskStop", "KillShell", "KillBash"], renamed: [["job_id", "task_id"]], paths: [] },
  ],
  ["create_task", { claude: ["TaskCreate"], renamed: [], paths: [] }],
  ["list_tasks", { claude: ["TaskList"], renamed: [], paths: [] }],
  ["get_task", { claude: ["TaskGet"], renamed: [["task_id", "taskId"]], paths: [] }],
  // Claude Code changes a task with TaskUpdate, a claim and a completion included.
  ["update_task", { claude: ["TaskUpdate"], renamed: [["task_id", "taskId"]], paths: [] }],
  [
    "claim_task",
    {
      claude: ["TaskUpdate"],
      renamed: [["task_id", "taskId"]],
      paths: [],
      fixed: { status: "in_progress" },
    },
  ],
  [
    "complete_task",
    {
      claude: ["TaskUpdate"],
      renamed: [["task_id", "taskId"]],
      paths: [],
      fixed: { status: "completed" },
    },
  ],
]);

/** rein's tool by Claude Code's name; for a name several rein tools share, the first. */
const REIN_BY_CLAUDE: ReadonlyMap<string, string> = new Map(
  [...TOOLS].flatMap(([rein, { claude }]) => claude.map((name) => [name, rein] as const))
    .reverse(),
);

/**
 * A rein tool call as Claude Code's hooks expect it: Claude Code's tool name and field names,
 * and paths made absolute against `cwd` (the workspace root rein's relative paths start
 * from). Fields Claude Code does not know pass through; MCP tools and tools rein does not know
 * pass through unchanged. Pure.
 */
export function toClaudeCall(
  reinTool: string,
  reinInput: Record<string, unknown>,
  cwd: string,
): ClaudeToolCall {
  const names = TOOLS.get(reinTool);
  if (names === undefined) return { tool_name: reinTool, tool_input: { ...reinInput } };
  const toClaude = new Map(names.renamed);
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(reinInput)) {
    const field = toClaude.get(key) ?? key;
    input[field] = names.paths.includes(field) ? absolutePath(value, cwd) : value;
  }
  return { tool_name: names.claude[0] ?? reinTool, tool_input: { ...input, ...names.fixed } };
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
): Record<string, unknown> {
  const names = TOOLS.get(reinTool);
  if (names === undefined) return { ...claudeInput };
  const toRein = new Map(names.renamed.map(([rein, claude]) => [claude, rein]));
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(claudeInput)) {
    if (names.fixed !== undefined && Object.hasOwn(names.fixed, key)) continue;
    input[toRein.get(key) ?? key] = names.paths.includes(key) ? reinPath(value, cwd) : value;
  }
  return input;
}

/**
 * Every name a hook matcher is tested against for a tool: Claude Code's name and aliases, then
 * rein's (`["Bash", "bash"]`, `["Task", "Agent", "task"]`). `tool` may be either name; any
 * other name (MCP tools) is the only one. Pure.
 */
export function hookMatchNames(tool: string): string[] {
  const rein = REIN_BY_CLAUDE.get(tool) ?? tool;
  const names = TOOLS.get(rein);
  return names === undefined ? [tool] : [...names.claude, rein];
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
