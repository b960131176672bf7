/**
 * The Agent SDK's `initialize` control request, read before the session starts: the SDK sends its
 * `systemPrompt` and `appendSystemPrompt` options there (not as flags), so they must shape the
 * session rein opens. What rein does not act on is named, with why. Zero imports.
 *
 * @module
 */

/** What rein takes from an `initialize` request. */
export interface InitializeOptions {
  /** The SDK's `systemPrompt` string: replaces rein's instructions, as `--system-prompt` does. */
  systemPrompt?: string;
  /** The SDK's `systemPrompt.append`: added at the end, as `--append-system-prompt` is. */
  appendSystemPrompt?: string;
  /** Notices for the fields rein does not act on. */
  notices: string[];
}

/** Fields of `initialize` rein does not act on, and why. */
const IGNORED_FIELDS: Record<string, string> = {
  hooks: "rein runs the hooks of settings files only, not callbacks of the program",
  sdkMcpServers: 'rein runs no in-process (type "sdk") MCP servers; give others with --mcp-config',
  agents: "rein reads subagents from .claude/agents/ and ~/.claude/agents/",
  jsonSchema: "rein has no structured output yet",
  planModeInstructions: "rein's plan mode has its own instructions",
  appendSubagentSystemPrompt: "rein's subagents take their definitions' prompts",
  toolAliases: "rein's tools have Claude Code's names as aliases already",
  skills: "rein reads skills from .claude/skills/ and ~/.claude/skills/",
};

/**
 * The `initialize` request on `line` (the first line of stream-json input), or undefined when
 * the line is something else. A `systemPrompt` of empty strings (the SDK's default) keeps rein's
 * own. Pure.
 */
export function readInitialize(line: string): InitializeOptions | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value.type !== "control_request" || !isRecord(value.request)) {
    return undefined;
  }
  const request = value.request;
  if (request.subtype !== "initialize") return undefined;
  const notices: string[] = [];
  const system = request.systemPrompt;
  const parts = typeof system === "string"
    ? [system]
    : Array.isArray(system)
    ? system.filter((part): part is string => typeof part === "string")
    : [];
  const systemPrompt = parts.join("\n\n");
  const append = request.appendSystemPrompt;
  for (const [field, reason] of Object.entries(IGNORED_FIELDS)) {
    if (given(request[field])) notices.push(`Ignored the initialize request's ${field}: ${reason}`);
  }
  return {
    ...(systemPrompt.trim() ? { systemPrompt } : {}),
    ...(typeof append === "string" && append.trim() ? { appendSystemPrompt: append } : {}),
    notices,
  };
}

/** Whether a field carries something (an empty list or object is the SDK's "none"). */
function given(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
