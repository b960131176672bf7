import type { PermissionClass, ToolFacts } from "./tool.ts";
import reinToolFacts from "./rein_tool_facts.json" with { type: "json" };

/**
 * Claude Code tools rein does not have: a permission rule, hook matcher or agent definition may
 * name them (a settings file shared with Claude Code stays valid), and they match no call.
 */
export const CLAUDE_CODE_ONLY_TOOLS: ReadonlySet<string> = new Set([
  "NotebookEdit",
  "NotebookRead",
  "WebFetch",
  "WebSearch",
  "ExitPlanMode",
  "SlashCommand",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
]);

/**
 * Claude Code's rules for these tools stand for a class of tools: an `Edit(path)` rule covers
 * every tool that edits a file, a `Read(path)` rule every read-only tool with a path (grep's and
 * glob's), and a `Read` deny the file edits there too.
 */
const CLASS_RULES: Readonly<Record<string, PermissionClass>> = { Edit: "edit", Read: "read-only" };

/** A tool's facts without its name: what a tool that stands in for another keeps of it. */
export function toolFacts(tool: ToolFacts): Omit<ToolFacts, "name"> {
  const { name: _name, ...facts } = pick(tool);
  return facts;
}

/** The fields of `tool` that are facts (a tool has many others). */
function pick(tool: ToolFacts): ToolFacts {
  const facts: ToolFacts = { name: tool.name };
  if (tool.claudeNames) facts.claudeNames = tool.claudeNames;
  if (tool.claudeFields) facts.claudeFields = tool.claudeFields;
  if (tool.pathFields) facts.pathFields = tool.pathFields;
  if (tool.commandField !== undefined) facts.commandField = tool.commandField;
  if (tool.specifierFields) facts.specifierFields = tool.specifierFields;
  if (tool.claudeFixed) facts.claudeFixed = tool.claudeFixed;
  if (tool.permission) facts.permission = tool.permission;
  return facts;
}

/**
 * Names and classes of a set of tools, derived from each tool's facts (`ToolFacts`): which rein
 * tools a Claude Code name stands for, what hooks call a tool, which rules cover which calls. The
 * one table permission rules, hooks and agent definitions share, so they cannot drift apart.
 */
export class ToolNames {
  readonly #byName = new Map<string, ToolFacts>();
  readonly #byClaude = new Map<string, string[]>();

  /** From `tools` in order; the first of a name counts. */
  constructor(tools: Iterable<ToolFacts>) {
    for (const tool of tools) {
      if (this.#byName.has(tool.name)) continue;
      const facts = pick(tool);
      this.#byName.set(tool.name, facts);
      for (const claude of facts.claudeNames ?? []) {
        const named = this.#byClaude.get(claude) ?? [];
        // The tool of a Claude name without fixed fields first, then the uses it covers.
        if (facts.claudeFixed === undefined) named.unshift(tool.name);
        else named.push(tool.name);
        this.#byClaude.set(claude, named);
      }
    }
  }

  /** These names with `tools` added (a pool's MCP tools); the names known win. */
  with(tools: Iterable<ToolFacts>): ToolNames {
    return new ToolNames([...this.#byName.values(), ...tools]);
  }

  /** The facts of rein's tool `name`, if known. */
  facts(name: string): ToolFacts | undefined {
    return this.#byName.get(name);
  }

  /** Whether `name` is a Claude Code tool rein does not have. */
  isClaudeOnly(name: string): boolean {
    return CLAUDE_CODE_ONLY_TOOLS.has(name) && !this.#byClaude.has(name);
  }

  /**
   * The rein tools a name stands for in an agent definition's `tools`: rein's name itself, or
   * every tool that answers to a Claude Code name (`TaskUpdate`: update_task, claim_task,
   * complete_task); none for a name not known.
   */
  toolsNamed(name: string): string[] {
    if (this.#byName.has(name)) return [name];
    return [...this.#byClaude.get(name) ?? []];
  }

  /**
   * The rein tool a permission rule naming `name` is for (`Read` → read_file): rein's name
   * itself, or the tool of that Claude Code name without fixed fields; undefined for a name not
   * known.
   */
  ruleTool(name: string): string | undefined {
    return this.#byName.has(name) ? name : this.#byClaude.get(name)?.[0];
  }

  /** The name Claude Code gives `tool` (hooks' `tool_name`, suggested rules), if it has one. */
  claudeName(tool: string): string | undefined {
    return this.#byName.get(tool)?.claudeNames?.[0];
  }

  /**
   * Every name a hook matcher is tested against for a tool: Claude Code's name and aliases, then
   * rein's (`["Bash", "bash"]`, `["Edit", "MultiEdit", "edit_file"]`). `tool` may be either name
   * (a shared Claude name: its tool without fixed fields); any other name is the only one.
   */
  matchNames(tool: string): string[] {
    const rein = this.ruleTool(tool) ?? tool;
    const facts = this.#byName.get(rein);
    return facts === undefined ? [tool] : [...facts.claudeNames ?? [], rein];
  }

  /** How permission rules and modes treat `tool` (`other` for a tool not known). */
  permission(tool: string): PermissionClass {
    return this.#byName.get(tool)?.permission ?? "other";
  }

  /** Whether `tool` writes the file its path names (an `edit` tool with a path field). */
  editsFiles(tool: string): boolean {
    return this.permission(tool) === "edit" && this.hasPath(tool);
  }

  /** Whether `tool` reads or searches the files its path names (a read-only tool with a path). */
  readsFiles(tool: string): boolean {
    return this.permission(tool) === "read-only" && this.hasPath(tool);
  }

  /** Whether a rule's specifier for `tool` is a path (`Edit(src/**)`). */
  hasPath(tool: string): boolean {
    return (this.#byName.get(tool)?.pathFields?.length ?? 0) > 0;
  }

  /** The values of `tool`'s fields a rule's specifier names (`Task(Explore)`'s subagent type). */
  specifierOf(tool: string, input: Record<string, unknown>): string | undefined {
    for (const field of this.#byName.get(tool)?.specifierFields ?? []) {
      const value = input[field];
      if (typeof value === "string") return value;
    }
    return undefined;
  }

  /**
   * Whether a rule for rein's tool `ruleTool` covers a call of `callTool`, in a rule list of
   * `list`: the same tool; an `Edit` rule every file edit; a `Read` rule every file read or
   * search (and, denying, every file edit); a rule for a Claude Code tool the uses of it with
   * fixed fields (`TaskUpdate`: claim_task, complete_task).
   */
  covers(ruleTool: string, callTool: string, list: "allow" | "ask" | "deny"): boolean {
    if (ruleTool === callTool) return true;
    const rule = this.#byName.get(ruleTool);
    const call = this.#byName.get(callTool);
    if (rule === undefined || call === undefined) return false;
    const claude = rule.claudeNames?.[0];
    if (claude === undefined) return false;
    if (rule.claudeFixed === undefined && call.claudeFixed !== undefined) {
      if (call.claudeNames?.[0] === claude) return true;
    }
    const covered = CLASS_RULES[claude];
    if (covered === "edit") return this.editsFiles(callTool);
    if (covered === "read-only") {
      return this.readsFiles(callTool) || (list === "deny" && this.editsFiles(callTool));
    }
    return false;
  }
}

let known = new ToolNames(reinToolFacts as readonly ToolFacts[]);

/**
 * rein's own tools' names, for what is decided where no pool is at hand (settings parsed at
 * start, hooks, agent definitions): the facts of every tool of rein's base tools and mechanisms,
 * as tests/tool_facts_test.ts derives them from the tools themselves into rein_tool_facts.json
 * (as the base tools' definitions are kept in base_tool_definitions.json), so no list drifts;
 * and those {@link addToolFacts} added.
 */
export function knownToolNames(): ToolNames {
  return known;
}

/**
 * Makes the tools of `facts` known by their names from now on in this process (a harness adds
 * its mechanisms' `toolFacts`): facts of code, as rein_tool_facts.json is, not of a session, so
 * they only widen what a rule, a hook matcher or an agent definition may name; a tool known but
 * in no agent's pool matches no call. A name rein knows keeps its facts.
 */
export function addToolFacts(facts: Iterable<ToolFacts>): void {
  const added = [...facts].filter((tool) => known.facts(tool.name) === undefined);
  if (added.length > 0) known = known.with(added);
}
