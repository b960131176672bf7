import { dirname, join } from "node:path";
import type { ConversationMessage } from "../../events/event_types.ts";
import type { Conversation } from "../state/conversation.ts";
import { mainAgentOf } from "../state/sessions.ts";
import type { State } from "../state/state.ts";
import { toClaudeCall } from "./claude_tool_names.ts";
import { claudeToolResponse } from "./claude_tool_response.ts";
import { isRecord } from "../settings/is_record.ts";

/** How far a session's transcript has been written: the last message's seq and blocks, and uuid. */
export interface TranscriptMark {
  /** The seq that began the last message written (-1: none yet). */
  seq: number;
  /** How many of that message's blocks were written (a user message grows). */
  blocks: number;
  /** The uuid of the last line written: the next line's `parentUuid`. */
  lastUuid: string | null;
}

/** Nothing written yet. */
export const EMPTY_MARK: TranscriptMark = { seq: -1, blocks: 0, lastUuid: null };

/** Whose transcript it is, as each line says. */
export interface TranscriptMeta {
  sessionId: string;
  cwd: string;
  /** When the lines are written. */
  timestamp: string;
}

/** One line of a Claude Code transcript (JSONL). */
export type TranscriptLine = Record<string, unknown>;

/**
 * The lines of a Claude Code–shaped transcript for the messages of `conversation` past `mark`:
 * `{type: "user" | "assistant", message: {role, content}, uuid, parentUuid, sessionId, timestamp,
 * cwd, isSidechain, userType}`, one line per assistant message and one per block of a user
 * message (a prompt's text as a string, each tool result on its own line, as Claude Code writes
 * them), tools named as Claude Code names them. uuids are derived from the session, the seq and
 * the block, so the same log gives the same lines. A projection of the log, never read back.
 * Pure.
 */
export function transcriptLines(
  conversation: Pick<Conversation, "messages" | "messageSeqs">,
  meta: TranscriptMeta,
  mark: TranscriptMark,
): { lines: TranscriptLine[]; mark: TranscriptMark } {
  const lines: TranscriptLine[] = [];
  const whole = mark.seq === -1;
  let next = { ...mark };
  // Blocks written so far of the messages that began at each seq (a forked history's share 0).
  const written = new Map<number, number>();
  // Every call by id, for its result's `toolUseResult` (Claude Code's object for the tool).
  const calls = new Map<string, { name: string; input: Record<string, unknown> }>();
  conversation.messages.forEach((message, index) => {
    if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type === "tool_use" && typeof block.id === "string") {
          calls.set(block.id, { name: String(block.name), input: recordOf(block.input) });
        }
      }
    }
    const seq = conversation.messageSeqs[index] ?? 0;
    const blocks = message.role === "assistant"
      ? [message.content]
      : message.content.map((block) => [block]);
    const before = written.get(seq) ?? 0;
    written.set(seq, before + blocks.length);
    // Past the mark: a later seq, or more blocks of the mark's (a user message grows).
    const from = whole || seq > mark.seq
      ? 0
      : seq === mark.seq
      ? Math.max(0, mark.blocks - before)
      : blocks.length;
    for (let block = from; block < blocks.length; block++) {
      const uuid = lineUuid(meta.sessionId, seq, before + block);
      lines.push({
        parentUuid: next.lastUuid,
        isSidechain: false,
        userType: "external",
        cwd: meta.cwd,
        sessionId: meta.sessionId,
        type: message.role,
        message: lineMessage(message, blocks[block] ?? [], meta.cwd),
        uuid,
        timestamp: meta.timestamp,
        ...toolUseResult(blocks[block] ?? [], calls, meta.cwd),
      });
      next = { ...next, lastUuid: uuid };
    }
    if (seq >= next.seq) next = { ...next, seq, blocks: written.get(seq) ?? 0 };
  });
  return { lines, mark: next };
}

/** Where a session's Claude Code transcript is kept: beside the log, `transcripts/<id>.jsonl`. */
export function claudeTranscriptPath(logPath: string, session: string): string {
  return join(dirname(logPath), "transcripts", `${session}.jsonl`);
}

/** The transcript path hooks are given: the session's transcript beside the log (none: ""). */
export function hookTranscriptPath(options: { transcriptPath: string }, session: string): string {
  return options.transcriptPath === "" ? "" : claudeTranscriptPath(options.transcriptPath, session);
}

/** Brings a session's transcript file up to date with the state before hooks read it. */
export type TranscriptWriter = (state: State, session: string) => Promise<string>;

/**
 * A live writer of Claude Code transcripts beside the log at `logPath`: the first write in this
 * process writes a session's file whole, later ones append only the new lines. Writes to one
 * session are serialized. Gives the file's absolute path; never throws (a file that cannot be
 * written is left as it is, and written whole the next time). Never used in replay (which writes
 * no file).
 */
export function claudeTranscriptWriter(
  logPath: string,
  now: () => Date = () => new Date(),
): TranscriptWriter {
  const marks = new Map<string, TranscriptMark>();
  const queues = new Map<string, Promise<unknown>>();
  return (state, session) => {
    const path = claudeTranscriptPath(logPath, session);
    const write = async () => {
      const view = state.sessions.byId[session];
      if (view === undefined) return path;
      const before = marks.get(session);
      const { lines, mark } = transcriptLines(mainAgentOf(view), {
        sessionId: session,
        cwd: view.workspace,
        timestamp: now().toISOString(),
      }, before ?? EMPTY_MARK);
      if (before === undefined) await Deno.mkdir(dirname(path), { recursive: true });
      if (before === undefined || lines.length > 0) {
        const text = lines.map((line) => JSON.stringify(line) + "\n").join("");
        await Deno.writeTextFile(path, text, { append: before !== undefined });
      }
      marks.set(session, mark);
      return path;
    };
    // A transcript that cannot be written leaves the hooks to run without it (they are told its
    // path; the next write starts the file again).
    const safe = () =>
      write().catch(() => {
        marks.delete(session);
        return path;
      });
    const queued = (queues.get(session) ?? Promise.resolve()).then(safe, safe);
    queues.set(session, queued);
    return queued;
  };
}

function lineMessage(
  message: ConversationMessage,
  blocks: ConversationMessage["content"],
  cwd: string,
): Record<string, unknown> {
  if (message.role === "assistant") {
    return {
      role: "assistant",
      type: "message",
      content: blocks.map((block) => block.type === "tool_use" ? claudeToolUse(block, cwd) : block),
    };
  }
  const [block] = blocks;
  if (block?.type === "text" && typeof block.text === "string") {
    return { role: "user", content: block.text };
  }
  return { role: "user", content: [...blocks] };
}

/** A tool result line's `toolUseResult`: the call's result as Claude Code gives it. Pure. */
function toolUseResult(
  blocks: ConversationMessage["content"],
  calls: ReadonlyMap<string, { name: string; input: Record<string, unknown> }>,
  cwd: string,
): { toolUseResult?: unknown } {
  const [block] = blocks;
  if (block?.type !== "tool_result" || blocks.length !== 1) return {};
  const content = typeof block.content === "string"
    ? block.content
    : Array.isArray(block.content)
    ? block.content.map((
      part,
    ) => (isRecord(part) && typeof part.text === "string" ? part.text : ""))
      .join("")
    : "";
  if (block.is_error === true) return { toolUseResult: `Error: ${content}` };
  const call = calls.get(String(block.tool_use_id));
  if (call === undefined) return { toolUseResult: content };
  return {
    toolUseResult: claudeToolResponse(call.name, call.input, { content, durationMs: 0 }, cwd),
  };
}

function recordOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function claudeToolUse(block: Record<string, unknown>, cwd: string): Record<string, unknown> {
  const name = typeof block.name === "string" ? block.name : "";
  const input =
    typeof block.input === "object" && block.input !== null && !Array.isArray(block.input)
      ? block.input as Record<string, unknown>
      : {};
  const claude = toClaudeCall(name, input, cwd);
  return { ...block, name: claude.tool_name, input: claude.tool_input };
}

/** A UUID-shaped id derived from the session, the seq and the block. Pure. */
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
