import type {
  ContentBlock,
  ConversationMessage,
  Envelope,
  RecordedFile,
  ToolResultBlock,
  Usage,
} from "../../events/event_types.ts";
import { compactedText } from "../state/conversation.ts";
import { toClaudeCall } from "./claude_tool_names.ts";
import { claudeToolResponse, type ToolResponseFacts } from "./claude_tool_response.ts";
import { isRecord } from "../settings/is_record.ts";

/** One line of a Claude Code transcript (JSONL). */
export type TranscriptLine = Record<string, unknown>;

/** A line and the agent whose transcript it joins (a subagent's: a sidechain of its own). */
export interface TranscriptEntry {
  agent: string;
  line: TranscriptLine;
}

/**
 * What the transcript fold keeps of one session: its place, its main agent, and per agent the last
 * line written (the next one's `parentUuid`) and the calls whose results are still to come.
 */
export interface TranscriptFold {
  session: string;
  cwd: string;
  /** The agent that started the session: its lines are the session's transcript. */
  mainAgent: string | null;
  /** The branch as `git rev-parse --abbrev-ref HEAD` says it ("HEAD" when detached; "" outside git). */
  gitBranch: string;
  /** What each line gives as `version` (the rein that writes it; "": none given). */
  version: string;
  chains: Map<string, AgentChain>;
  /** The subagent each `task` call started, by the call's id, until the call's result. */
  spawned: Map<string, { agent: string; type: string }>;
}

interface AgentChain {
  lastUuid: string | null;
  /** Calls by id until their result: the line that asked, the call in rein's names. */
  calls: Map<string, { uuid: string; name: string; input: Record<string, unknown> }>;
  /** The agent's token usage and tool calls so far: a `task` result's totals. */
  usage: Record<string, number>;
  toolUses: number;
}

/** The `source` of the git HEAD file recorded with a session (core/environment's GIT_HEAD_SOURCE). */
const GIT_HEAD_SOURCE = "environment.git";

/** A fold of `session` that has seen nothing yet. */
export function emptyTranscriptFold(session: string, version = ""): TranscriptFold {
  return {
    session,
    cwd: "",
    mainAgent: null,
    gitBranch: "",
    version,
    chains: new Map(),
    spawned: new Map(),
  };
}

/**
 * The Claude Code transcript lines one event of the log adds, as Claude Code writes them: a
 * prompt as a `user` line with string content; each block of an answer as an `assistant` line
 * whose `message` is the API's (`id`, `model`, `stop_reason`, `usage`) with that block, and its
 * `requestId`; each tool result as a `user` line with the `tool_result` block, `toolUseResult`
 * (Claude Code's object for the call) and the answer's line as parent; text rein adds for the
 * model (hook context, reminders, arrivals) as `isMeta` user lines; a compaction as a
 * `system`/`compact_boundary` line and an `isCompactSummary` user line. Every line has
 * `parentUuid`, `isSidechain`, `userType`, `cwd`, `sessionId`, `version`, `gitBranch`, `uuid` and
 * the event's own `timestamp`; a subagent's lines are a sidechain with its `agentId`. Tools are
 * named as Claude Code names them. uuids derive from the session, the seq and the line's place,
 * so the same log gives the same lines. Mutates `fold` (the chains); pure otherwise.
 */
export function transcriptEntries(fold: TranscriptFold, event: Envelope): TranscriptEntry[] {
  if (event.session !== fold.session) return [];
  const out = new Emitter(fold, event);
  switch (event.type) {
    case "session.started":
      fold.cwd = event.data.workspace;
      fold.mainAgent = event.agent;
      fold.gitBranch = branchOf(event.data.files ?? []);
      for (const message of event.data.history ?? []) out.message(message, event.data.model);
      break;
    case "session.resumed":
      if (event.data.files !== undefined) fold.gitBranch = branchOf(event.data.files);
      break;
    case "user.prompted":
      if (event.data.refused === undefined) out.user(event.data.text);
      break;
    case "agent.spawned":
      fold.spawned.set(event.data.callId, { agent: event.agent, type: event.data.type });
      break;
    case "model.responded":
      out.counted(event.data.usage, event.data.content);
      if (event.data.purpose === undefined) {
        const { messageId, model, stopReason, usage, requestId } = event.data;
        for (const block of usable(event.data.content)) {
          out.assistant(block, {
            id: messageId,
            model,
            stop_reason: stopReason,
            stop_sequence: null,
            usage: claudeUsage(usage),
          }, requestId);
        }
      }
      break;
    case "tool.completed": {
      const { callId, content, blocks, isError, durationMs } = event.data;
      out.result(
        {
          tool_use_id: callId,
          type: "tool_result",
          content,
          ...(isError ? { is_error: true } : {}),
        },
        durationMs,
        blocks,
      );
      break;
    }
    case "hook.context":
    case "arrival.injected":
    case "model.continued":
      out.user(event.data.text, { isMeta: true });
      break;
    case "reminder.added":
      out.user(`<system-reminder>\n${event.data.text}\n</system-reminder>`, { isMeta: true });
      break;
    case "compaction.completed":
      out.compacted(event.data.trigger, event.data.tokensBefore, event.data.summary);
      break;
  }
  return out.entries;
}

/** Writes the lines of one event, chained on its agent's last line. */
class Emitter {
  readonly entries: TranscriptEntry[] = [];
  readonly #chain: AgentChain;
  readonly #sidechain: boolean;

  constructor(private readonly fold: TranscriptFold, private readonly event: Envelope) {
    let chain = fold.chains.get(event.agent);
    if (chain === undefined) {
      chain = { lastUuid: null, calls: new Map(), usage: {}, toolUses: 0 };
      fold.chains.set(event.agent, chain);
    }
    this.#chain = chain;
    this.#sidechain = fold.mainAgent !== null && event.agent !== fold.mainAgent;
  }

  user(text: string, extra: TranscriptLine = {}): void {
    this.#push("user", { role: "user", content: text }, extra);
  }

  assistant(block: ContentBlock, meta: TranscriptLine, requestId: string | null): void {
    const content = [block.type === "tool_use" ? this.#claudeToolUse(block) : block];
    const message = { ...meta, type: "message", role: "assistant", content };
    const uuid = this.#push("assistant", message, requestId === null ? {} : { requestId });
    if (block.type === "tool_use") {
      this.#chain.calls.set(block.id, { uuid, name: block.name, input: recordOf(block.input) });
    }
  }

  /** Adds an answer's usage and tool calls to the agent's totals. */
  counted(usage: Usage, content: readonly ContentBlock[]): void {
    const totals = this.#chain.usage;
    for (const [key, value] of Object.entries(claudeUsage(usage))) {
      if (typeof value === "number") totals[key] = (totals[key] ?? 0) + value;
    }
    this.#chain.toolUses += content.filter((block) => block.type === "tool_use").length;
  }

  /** A tool result; with `blocks` (an MCP tool's image), the model saw those instead of text. */
  result(
    block: TranscriptLine & { tool_use_id: string; content: string },
    durationMs: number,
    blocks?: ToolResultBlock[],
  ) {
    const call = this.#chain.calls.get(block.tool_use_id);
    this.#chain.calls.delete(block.tool_use_id);
    const completed = { content: block.content, durationMs, ...(blocks ? { blocks } : {}) };
    const toolUseResult = block.is_error === true
      ? `Error: ${block.content}`
      : call === undefined
      ? block.content
      : claudeToolResponse(call.name, call.input, completed, this.fold.cwd, this.#facts(block));
    // Claude Code chains a result on the answer that asked for it.
    const parent = call?.uuid ?? this.#chain.lastUuid;
    this.#push(
      "user",
      { role: "user", content: [blocks ? { ...block, content: blocks } : block] },
      {
        toolUseResult,
        sourceToolAssistantUUID: parent,
      },
      parent,
    );
  }

  /** A message of a forked history, as the session's start has it. */
  message(message: ConversationMessage, model: string): void {
    for (const block of message.content) {
      if (message.role === "assistant") {
        this.assistant(block as ContentBlock, { model }, null);
      } else if (block.type === "tool_result") {
        const text = typeof block.content === "string" ? block.content : "";
        const blocks = Array.isArray(block.content)
          ? block.content as ToolResultBlock[]
          : undefined;
        this.result({ ...block, tool_use_id: String(block.tool_use_id), content: text }, 0, blocks);
      } else if (block.type === "text" && typeof block.text === "string") this.user(block.text);
    }
  }

  compacted(trigger: string, preTokens: number, summary: string): void {
    this.#push("system", undefined, {
      subtype: "compact_boundary",
      content: "Conversation compacted",
      isMeta: false,
      level: "info",
      compactMetadata: { trigger, preTokens },
      logicalParentUuid: this.#chain.lastUuid,
    }, null);
    this.user(compactedText(summary), { isCompactSummary: true, isVisibleInTranscriptOnly: true });
  }

  #push(
    type: "user" | "assistant" | "system",
    message: TranscriptLine | undefined,
    extra: TranscriptLine,
    parentUuid: string | null = this.#chain.lastUuid,
  ): string {
    const { fold, event } = this;
    const uuid = lineUuid(fold.session, event.seq, this.entries.length);
    this.entries.push({
      agent: event.agent,
      line: {
        parentUuid,
        isSidechain: this.#sidechain,
        userType: "external",
        cwd: fold.cwd,
        sessionId: fold.session,
        ...(fold.version === "" ? {} : { version: fold.version }),
        gitBranch: fold.gitBranch,
        ...(this.#sidechain ? { agentId: event.agent } : {}),
        type,
        ...(message === undefined ? {} : { message }),
        ...extra,
        uuid,
        timestamp: event.ts,
      },
    });
    this.#chain.lastUuid = uuid;
    return uuid;
  }

  /** What a `task` result's object needs: the subagent's id, type and totals. */
  #facts(block: { tool_use_id: string }): ToolResponseFacts {
    const child = this.fold.spawned.get(block.tool_use_id);
    if (child === undefined) return {};
    this.fold.spawned.delete(block.tool_use_id);
    const chain = this.fold.chains.get(child.agent);
    const usage = { ...chain?.usage };
    return {
      subagent: {
        totalTokens: Object.values(usage).reduce((sum, n) => sum + n, 0),
        totalToolUseCount: chain?.toolUses ?? 0,
        usage,
        agentId: child.agent,
        agentType: child.type,
      },
    };
  }

  #claudeToolUse(block: Extract<ContentBlock, { type: "tool_use" }>): TranscriptLine {
    const claude = toClaudeCall(block.name, recordOf(block.input), this.fold.cwd);
    return { ...block, name: claude.tool_name, input: claude.tool_input };
  }
}

/** The blocks of an answer the conversation keeps: no blank text, no unsigned thinking. Pure. */
function usable(content: readonly ContentBlock[]): ContentBlock[] {
  return content.filter((block) =>
    block.type === "text"
      ? /\S/.test(block.text)
      : block.type === "thinking"
      ? typeof block.signature === "string" && block.signature !== ""
      : block.type !== "tool_use" || (typeof block.id === "string" && block.id !== "")
  );
}

/** Usage as Claude Code writes it: every count a number (the API may give null for the cache). */
function claudeUsage(usage: Usage): Usage {
  return {
    ...usage,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
  };
}

/** The branch a recorded HEAD file names, as git abbreviates it ("HEAD": detached). Pure. */
function branchOf(files: readonly RecordedFile[]): string {
  const head = files.find((file) => file.source === GIT_HEAD_SOURCE);
  if (head === undefined) return "";
  return /^ref:\s*refs\/heads\/(.+)$/m.exec(head.text)?.[1]?.trim() ?? "HEAD";
}

function recordOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** A UUID-shaped id derived from the session, the seq and the line's place. Pure. */
export function lineUuid(session: string, seq: number, block: number): string {
  const text = `${session}:${seq}:${block}`;
  const words = [0x811c9dc5, 0x01000193, 0x5bd1e995, 0x27d4eb2f].map((seed) => {
    let hash = seed >>> 0;
    for (let i = 0; i < text.length; i++) {
      hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
    }
    return hash.toString(16).padStart(8, "0");
  });
  const hex = words.join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${
    hex.slice(20, 32)
  }`;
}
