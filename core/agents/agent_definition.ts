import { load } from "js-yaml";

/** A kind of subagent the `task` tool can start: built in, or a `.claude/agents/*.md` file. */
export interface AgentDefinition {
  /** What `subagent_type` names it. */
  name: string;
  /** When to use it: the line the `task` tool's description lists. */
  description: string;
  /** The tools it may call, as written (Claude Code's or rein's names); absent: all but task. */
  tools?: string[];
  /** Its model (`inherit`, an alias such as `sonnet`, or an id); absent: the parent's. */
  model?: string;
  /** Bound on its model rounds. */
  maxTurns?: number;
  /** Claude Code's `permissionMode`, as written. */
  permissionMode?: string;
  /**
   * Claude Code's `isolation: worktree`: each agent of the type starts in a git worktree of its
   * own (where the worktrees mechanism is on). Another value is ignored, as before it was read.
   */
  isolation?: "worktree";
  /**
   * Claude Code's `mcpServers`: the MCP servers it may use, each a configured server's name or an
   * inline server (`{name: config}`, its config checked when it is started); absent: its
   * process's servers.
   */
  mcpServers?: AgentMcpServer[];
  /** Its system prompt section: the file's body (a built-in type's own text). */
  systemPrompt: string;
  /** The file it came from; absent for built-in types. */
  path?: string;
}

/** One entry of a definition's `mcpServers`: a configured server's name, or an inline server. */
export interface AgentMcpServer {
  name: string;
  /** An inline server's entry, as written (absent: the configured server of that name). */
  config?: unknown;
}

/** A definition file parsed, or why it cannot be used. */
export type ParsedAgentDefinition =
  | { ok: true; definition: AgentDefinition }
  | { ok: false; message: string };

const NAME = /^[\p{L}\p{N}][\p{L}\p{N}._:-]*$/u;
const MAX_NAME = 64;
const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?^---[ \t]*(?:\r?\n|$)/m;
const PERMISSION_MODES = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"];

/**
 * Parse the subagent definition at `path` whose text is `text`: YAML frontmatter between `---`
 * lines with `name` and `description` (both required), `tools` (a comma-separated text or a
 * list), `model`, `maxTurns` (a positive integer), `permissionMode` and `mcpServers` (names and
 * inline `{name: config}` servers); other keys are ignored.
 * The body after the frontmatter is the agent's system prompt. Pure; never throws: a file that
 * cannot be used comes back with a message naming its path and what is wrong.
 */
export function parseAgentDefinition(path: string, text: string): ParsedAgentDefinition {
  const fail = (why: string): ParsedAgentDefinition => ({
    ok: false,
    message: `Skipped the agent definition at "${path}": ${why}`,
  });
  const match = FRONTMATTER.exec(text);
  if (!match || match.index !== 0) {
    return fail(
      "it has no frontmatter (a --- line, YAML with a name and a description, a --- line)",
    );
  }
  let data: unknown = {};
  try {
    const yaml = match[1] ?? "";
    if (yaml.replace(/^\s*#.*$/gm, "").trim() !== "") data = load(yaml);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return fail(`its frontmatter is not valid YAML: ${reason}`);
  }
  data ??= {};
  if (typeof data !== "object" || Array.isArray(data)) {
    return fail("its frontmatter is not a YAML mapping of keys to values");
  }
  const fields = data as Record<string, unknown>;
  const name = fields["name"];
  if (name === undefined) return fail("its frontmatter has no name");
  if (typeof name !== "string" || !NAME.test(name) || name.length > MAX_NAME) {
    return fail(
      `its name ${JSON.stringify(name)} is not a name (letters, digits, "-", "_", ".", ":"; ` +
        `at most ${MAX_NAME} characters)`,
    );
  }
  const description = fields["description"];
  if (typeof description !== "string" || description.trim() === "") {
    return fail(
      description === undefined
        ? "its frontmatter has no description (when to use the agent)"
        : "its description is not a non-empty text",
    );
  }
  const tools = toolList(fields["tools"]);
  if (tools === null) {
    return fail("its tools is neither a comma-separated text nor a list of names");
  }
  const model = fields["model"];
  if (model !== undefined && (typeof model !== "string" || model.trim() === "")) {
    return fail("its model is not a non-empty text");
  }
  const maxTurns = fields["maxTurns"];
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && (maxTurns as number) > 0)) {
    return fail(`its maxTurns ${JSON.stringify(maxTurns)} is not a positive whole number`);
  }
  const mode = fields["permissionMode"];
  if (mode !== undefined && (typeof mode !== "string" || !PERMISSION_MODES.includes(mode))) {
    return fail(
      `its permissionMode ${JSON.stringify(mode)} is not one of ${PERMISSION_MODES.join(", ")}`,
    );
  }
  const mcpServers = mcpServerList(fields["mcpServers"]);
  if (typeof mcpServers === "string") return fail(mcpServers);
  const body = text.slice(match[0].length).trim();
  return {
    ok: true,
    definition: {
      name,
      description: description.trim(),
      ...(tools === undefined ? {} : { tools }),
      ...(model === undefined ? {} : { model: (model as string).trim() }),
      ...(maxTurns === undefined ? {} : { maxTurns: maxTurns as number }),
      ...(mode === undefined ? {} : { permissionMode: mode as string }),
      ...(fields["isolation"] === "worktree" ? { isolation: "worktree" as const } : {}),
      ...(mcpServers === undefined ? {} : { mcpServers }),
      systemPrompt: body,
      path,
    },
  };
}

/** `tools: Read, Grep` or `tools: [Read, Grep]`; undefined when absent, null when malformed. */
function toolList(value: unknown): string[] | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") {
    return value.split(",").map((name) => name.trim()).filter(Boolean);
  }
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return value.map((name) => name.trim()).filter(Boolean);
  }
  return null;
}

/**
 * `mcpServers: [github, {local: {command: ...}}]` (a list of names and one-key `{name: config}`
 * mappings, as Claude Code takes it; a mapping of several names is several inline servers);
 * undefined when absent, what is wrong when malformed.
 */
function mcpServerList(value: unknown): AgentMcpServer[] | undefined | string {
  if (value === undefined || value === null) return undefined;
  const wrong = "its mcpServers is not a list of server names and {name: config} entries";
  const items = Array.isArray(value) ? value : [value];
  const servers: AgentMcpServer[] = [];
  for (const item of items) {
    if (typeof item === "string" && item.trim() !== "") {
      servers.push({ name: item.trim() });
    } else if (typeof item === "object" && item !== null && !Array.isArray(item)) {
      const entries = Object.entries(item);
      if (entries.length === 0) return wrong;
      for (const [name, config] of entries) servers.push({ name, config });
    } else {
      return wrong;
    }
  }
  return servers;
}
