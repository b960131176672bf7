/**
 * Claude Code's headless output shapes (`-p --output-format json|stream-json`, CC 2.1.197; see
 * compat.md), built from rein's events, so programs written for Claude Code read rein unchanged.
 * Every function is pure but for the `uuid` each line carries, as Claude Code's do.
 */
import type { EnvelopeOf, TurnEndReason, Usage } from "../events/event_types.ts";
import { contextWindowOf, maxOutputOf } from "../core/models/catalogue.ts";
import { costOf } from "../core/models/cost.ts";

/** CC's usage object of a result. */
export interface ResultUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
}

/** CC's per-model usage entry of a result. */
export interface ModelUsageEntry {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  costUSD: number;
  contextWindow: number;
  maxOutputTokens: number;
}

/** The object `--output-format json` prints, and `stream-json` ends with. */
export interface HeadlessResult {
  type: "result";
  subtype: "success" | "error_max_turns" | "error_max_budget_usd" | "error_during_execution";
  is_error: boolean;
  duration_ms: number;
  duration_api_ms: number;
  num_turns: number;
  result: string;
  stop_reason: string | null;
  session_id: string;
  total_cost_usd: number;
  usage: ResultUsage;
  modelUsage: Record<string, ModelUsageEntry>;
  permission_denials: PermissionDenial[];
  /**
   * What went wrong, on an error result (Claude Code's field; the Agent SDK reads it and fails
   * on an error result without it).
   */
  errors?: string[];
  /** rein's own reason when the run was cancelled with Ctrl-C (CC reports an execution error). */
  terminal_reason: TurnEndReason;
}

/** What a headless run ended with, as {@link headlessResult} reads it. */
export interface HeadlessOutcome {
  /** Why the turn ended; `completed` when there was nothing to continue. */
  reason: TurnEndReason;
  /** Model rounds of the run (`num_turns`). */
  rounds: number;
  /** The turn's detail for a failed, cancelled or stopped turn. */
  message?: string;
  /** The assistant's last text, the result of a completed run. */
  lastText: string;
  /** `stop_reason` of the run's last answer. */
  stopReason: string | null;
  sessionId: string;
  /** The run's usage per model asked. */
  usageByModel: Readonly<Record<string, Usage>>;
  durationMs: number;
  /** Time spent waiting for the model. */
  durationApiMs: number;
  /** Calls the run was not allowed to make. */
  permissionDenials?: PermissionDenial[];
}

/** A call denied by a rule, mode or missing person, as Claude Code lists it in the result. */
export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
}

/**
 * The result object of a headless run: `success` for a completed turn, else an error subtype
 * (`error_max_turns`, or `error_during_execution` for a failed, interrupted or cancelled turn)
 * whose `result` is the turn's message, or its reason when it has none. Pure.
 */
export function headlessResult(outcome: HeadlessOutcome): HeadlessResult {
  const { reason } = outcome;
  const usage: ResultUsage = {
    input_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: 0,
  };
  const modelUsage: Record<string, ModelUsageEntry> = {};
  let total = 0;
  for (const [model, used] of Object.entries(outcome.usageByModel)) {
    const cost = costOf(model, used);
    total += cost;
    usage.input_tokens += used.input_tokens;
    usage.output_tokens += used.output_tokens;
    usage.cache_creation_input_tokens += used.cache_creation_input_tokens ?? 0;
    usage.cache_read_input_tokens += used.cache_read_input_tokens ?? 0;
    modelUsage[model] = {
      inputTokens: used.input_tokens,
      outputTokens: used.output_tokens,
      cacheReadInputTokens: used.cache_read_input_tokens ?? 0,
      cacheCreationInputTokens: used.cache_creation_input_tokens ?? 0,
      costUSD: cost,
      contextWindow: contextWindowOf(model),
      maxOutputTokens: maxOutputOf(model),
    };
  }
  return {
    type: "result",
    subtype: SUBTYPES[reason],
    is_error: reason !== "completed",
    duration_ms: outcome.durationMs,
    duration_api_ms: outcome.durationApiMs,
    num_turns: outcome.rounds,
    result: reason === "completed" ? outcome.lastText : outcome.message ?? reason,
    stop_reason: outcome.stopReason,
    session_id: outcome.sessionId,
    total_cost_usd: total,
    usage,
    modelUsage,
    permission_denials: outcome.permissionDenials ?? [],
    ...(reason === "completed" ? {} : { errors: [outcome.message ?? reason] }),
    terminal_reason: reason,
  };
}

/** The exit code of a headless run: 0 when completed, 130 when cancelled, else 1. Pure. */
export function exitCode(reason: TurnEndReason): number {
  return reason === "completed" ? 0 : reason === "cancelled" ? 130 : 1;
}

/** The first line of `stream-json`: what the session runs with. */
export function initLine(init: {
  cwd: string;
  sessionId: string;
  tools: readonly string[];
  model: string;
  apiKeySource: string;
  /** The session's permission mode (`default` for a session without permissions). */
  permissionMode?: string;
  /** What the person can run with `/` beyond rein's own: custom commands and skills. */
  slashCommands?: readonly string[];
  /** The plugins the session uses, as Claude Code lists them: name and folder. */
  plugins?: readonly { name: string; path: string }[];
  /** The MCP servers and their status (`connected`, `pending`, `failed`, `disabled`). */
  mcpServers?: readonly { name: string; status: string }[];
}) {
  return {
    type: "system",
    subtype: "init",
    cwd: init.cwd,
    session_id: init.sessionId,
    tools: [...init.tools],
    mcp_servers: (init.mcpServers ?? []).map(({ name, status }) => ({ name, status })),
    model: init.model,
    permissionMode: init.permissionMode ?? "default",
    slash_commands: [...init.slashCommands ?? []],
    apiKeySource: init.apiKeySource,
    agents: [],
    skills: [],
    plugins: (init.plugins ?? []).map(({ name, path }) => ({ name, path })),
    uuid: crypto.randomUUID(),
  };
}

/** An assistant message of `stream-json`, from a recorded answer. */
export function assistantLine(event: EnvelopeOf<"model.responded">) {
  const { data } = event;
  return {
    type: "assistant",
    message: {
      id: data.messageId,
      type: "message",
      role: "assistant",
      model: data.model,
      content: data.content,
      stop_reason: data.stopReason,
      stop_sequence: null,
      usage: data.usage,
    },
    parent_tool_use_id: null,
    session_id: event.session,
    uuid: crypto.randomUUID(),
    request_id: data.requestId,
  };
}

/** A user message of `stream-json` carrying one tool result. */
export function toolResultLine(event: EnvelopeOf<"tool.completed">) {
  const { data } = event;
  return {
    type: "user",
    message: {
      role: "user",
      content: [{
        tool_use_id: data.callId,
        type: "tool_result",
        content: data.blocks ?? data.content,
        is_error: data.isError,
      }],
    },
    parent_tool_use_id: null,
    session_id: event.session,
    uuid: crypto.randomUUID(),
    timestamp: event.ts,
  };
}

const SUBTYPES: Record<TurnEndReason, HeadlessResult["subtype"]> = {
  completed: "success",
  max_turns: "error_max_turns",
  max_budget: "error_max_budget_usd",
  cancelled: "error_during_execution",
  failed: "error_during_execution",
  interrupted: "error_during_execution",
};
