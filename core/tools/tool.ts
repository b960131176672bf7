import type { z } from "zod";
import type { FileSeen, ReinEvent, ToolResultBlock } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";
import type { SiblingAgent } from "./sibling_agent.ts";

/** What a tool hands back to the loop. A tool never throws into the loop. */
export interface ToolResult {
  /** Text the model sees as the tool_result content; with `blocks`, their text for people. */
  content: string;
  /**
   * Content blocks the model sees instead of `content`, for a result that is more than text (an
   * MCP tool's images and resources): recorded in the call's `tool.completed`.
   */
  blocks?: ToolResultBlock[];
  /** True when the call failed; worded for the model ("File not found: src/x.ts"). */
  isError?: boolean;
  /** True when the tool stopped because the turn was cancelled (not when it finished first). */
  cancelled?: boolean;
  /**
   * The file the call read or wrote, as it was on disk when it ended (recorded in the call's
   * `tool.completed`): what read before edit compares a later edit with.
   */
  file?: FileSeen;
  /**
   * Events the call records, appended in the same batch as its `tool.completed` (before it), so a
   * crash can never keep one without the other. The loop stamps their session and agent.
   */
  events?: ReinEvent[];
  /**
   * For a result that depends on what other processes may append meanwhile (claiming a task,
   * taking the next task number): the loop calls it once, under the log's lock, on the state
   * caught up with every writer's appends (`EventStore.appendDecided`), and records what it
   * returns (content, error flag, events; its own `decide` is ignored) in the batch of the
   * call's `tool.completed`, instead of this result. It must be synchronous and pure over the
   * state. A runner that records nothing (a test calling `run`) may ignore it: the result around
   * it should be what it decides on the state the tool saw.
   */
  decide?: (state: State) => ToolResult;
}

/** Per-call context the loop gives a tool. */
export interface ToolCallContext {
  /** Aborted when the user cancels the turn; a tool stops its work and returns promptly. */
  signal: AbortSignal;
  /** The session and the agent that made the call. */
  session: string;
  agent: string;
  /** The model's tool_use id. */
  callId: string;
  /** The directory the agent works in (the workspace, or an agent's own worktree). */
  cwd: string;
  /** The projected state as it is now (caught up to the call's intent). */
  view(): State;
  /**
   * Another agent of the same session, sharing the caller's wiring: what a `composite` tool
   * drives (a subagent). Absent where no loop runs the call (a tool run on its own in a test).
   */
  sibling?(agent: string): SiblingAgent;
}

/**
 * How a tool's result is reproduced by replay:
 * - `effect`: it touches the world (shell, files, network); replay serves its recorded result
 *   and events and never runs it;
 * - `decider`: a pure function of its input and `view()` (todos, tasks, mail); replay runs it
 *   again, so `--verify` checks its decisions;
 * - `composite`: it drives other loops (subagents, teammates); replay re-drives them.
 */
export type ToolKind = "effect" | "decider" | "composite";

/** The zod functions a schema built on first use receives (see `lazySchema`). */
export type Zod = typeof import("./_zod.ts");

/**
 * What a tool is to permission rules and modes, as Claude Code classes its tools:
 * - `read-only`: it changes nothing outside rein's log (or only the agent's own plans: todos,
 *   cron, tasks; a subagent, whose own calls each pass the gate): it never asks, and runs in plan
 *   mode; `Read(path)` rules cover those with a path field (read_file, grep, glob);
 * - `edit`: it writes the file its path field names: `Edit(path)` rules cover it, `acceptEdits`
 *   allows it inside the workspace, and a write under `.claude/` or `.git/` asks a person;
 * - `execute`: it runs its command field in a shell (`Bash(npm test *)` rules);
 * - `other`: it asks unless a rule allows it (an MCP server's tools).
 */
export type PermissionClass = "read-only" | "edit" | "execute" | "other";

/**
 * What permission rules, hooks and agent definitions know of a tool besides its schema: its
 * Claude Code names, which input fields hold a path or a command, and its permission class.
 * Everything that maps names or classes tools (core/tools/tool_names.ts) is derived from these.
 */
export interface ToolFacts {
  /** rein's name for the tool (`read_file`), what the model calls. */
  name: string;
  /**
   * Claude Code's name for the tool, then the other names it answers to in permission rules,
   * hook matchers and agent definitions' `tools` (`["Task", "Agent"]`, `["Edit", "MultiEdit"]`).
   * Hooks are given the first as `tool_name`. Absent: the tool has only rein's name.
   */
  claudeNames?: readonly string[];
  /**
   * Input fields Claude Code names otherwise, rein's name to Claude Code's (`{ path: "file_path" }`):
   * hooks and Agent SDK programs see Claude Code's.
   */
  claudeFields?: Readonly<Record<string, string>>;
  /**
   * Input fields (rein's names) that hold a path: path rules (`Edit(src/**)`) match them, and
   * hooks see them absolute.
   */
  pathFields?: readonly string[];
  /** The input field that holds a shell command, which `Bash(npm test *)` rules match. */
  commandField?: string;
  /**
   * Input fields whose value a rule's specifier matches for a tool with neither paths nor a
   * command (`Task(Explore)`: `subagent_type`); the first that holds a string counts.
   */
  specifierFields?: readonly string[];
  /**
   * Fields Claude Code's tool of the same name has that say which of its uses this tool is
   * (claim_task is TaskUpdate with `status: "in_progress"`): added for hooks, dropped from an
   * input a hook rewrote. A rule for the tool of that Claude name without fixed fields
   * (`TaskUpdate`, `update_task`) covers this one.
   */
  claudeFixed?: Readonly<Record<string, unknown>>;
  /** How permission rules and modes treat the tool; `other` when absent. */
  permission?: PermissionClass;
}

/**
 * A tool the model can call: a zod schema (its JSON Schema is what the model sees and what the
 * model's input is validated against) and a `run` that never throws.
 */
export interface Tool<Input = unknown> extends ToolFacts {
  name: string;
  description: string;
  /**
   * The input's zod schema, or a function that imports and builds it, called on the tool's first
   * call (`lazySchema`), so that loading the tool does not load zod. A tool whose schema is built
   * on first use must give `inputSchema`. Absent: the tool is described by its `inputSchema`
   * alone (an MCP server's tool), and its input is checked against that with a JSON Schema
   * validator.
   */
  schema?: z.ZodType<Input> | (() => Promise<z.ZodType<Input>>);
  /**
   * The JSON Schema the model sees (the definition's `input_schema`), when the tool ships it
   * precomputed, so that no request has to derive it from `schema`. It must equal what `schema`
   * gives: the base tools take theirs from the generated `base_tool_definitions.json`, which a
   * test compares with zod's output.
   */
  inputSchema?: Record<string, unknown>;
  kind: ToolKind;
  /** True for tools with no side effects (safe to re-run after a crash). */
  readOnly: boolean;
  /**
   * True for a tool whose calls may run at once with the other concurrent or read-only calls of
   * the same answer although it is not read-only (`task`: each subagent runs in its own loop).
   */
  concurrent?: boolean;
  /**
   * A line of guidance for the system prompt's "How you work" list, present only while the tool
   * is in the pool (so a subset of tools never sends advice about tools it lacks).
   */
  guidance?: string;
  /** The key argument shown on the one-line call summary (a command, a path, a pattern). */
  summarize(input: Input): string;
  run(input: Input, context: ToolCallContext): Promise<ToolResult>;
}

/** A tool whose input type has been erased, as kept in a tool set. */
// deno-lint-ignore no-explicit-any
export type AnyTool = Tool<any>;
