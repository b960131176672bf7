import type { ContextCleared, ConversationMessage } from "../../events/event_types.ts";
import { estimateTokens } from "./estimate.ts";
import { MessageFacts } from "./_message_facts.ts";

/** The start of a cleared result's placeholder. */
export const CLEARED_PREFIX = "[Old tool result cleared";

/** Results shorter than this are left alone: clearing them saves too little. */
const MIN_CHARS = 400;

/** Tools that change a file, and where their input names it. */
const WRITERS = new Set(["write_file", "edit_file"]);

/**
 * Layer 3, micro-compaction: old tool results become a short placeholder naming the call. The
 * last `keepRecent` results stay; reads of a file that a later call wrote or edited go first,
 * whatever their age. Clears nothing until `step` results are due, and then all of them at
 * once, so the request's prefix changes rarely. Pure.
 */
export function planClear(
  messages: readonly ConversationMessage[],
  limits: { keepRecentResults: number; clearStep: number },
): ContextCleared | undefined {
  if (!mayClear(messages, limits)) return undefined;
  // Plain loops, parallel arrays for the results, and the calls looked at only where a file was
  // written (for stale reads) or when a clear is due (for the placeholders).
  const writtenAt = new Map<string, number>();
  const resultIds: string[] = [];
  const resultChars: number[] = [];
  for (let at = 0; at < messages.length; at++) {
    for (const block of (messages[at] as ConversationMessage).content) {
      if (block.type === "tool_use") {
        if (WRITERS.has(String(block.name))) {
          const path = pathOf(inputOf(block));
          if (path !== undefined) writtenAt.set(path, at);
        }
      } else if (block.type === "tool_result") {
        const chars = resultSize(block.content);
        if (chars === undefined) continue;
        resultIds.push(String(block.tool_use_id));
        resultChars.push(chars);
      }
    }
  }
  const calls = writtenAt.size > 0 ? callsOf(messages) : undefined;
  const recent = new Set(resultIds.slice(-limits.keepRecentResults));
  const due: number[] = [];
  for (let i = 0; i < resultIds.length; i++) {
    if ((resultChars[i] as number) < MIN_CHARS) continue;
    const callId = resultIds[i] as string;
    const found = calls?.get(callId);
    const path = found ? pathOf(inputOf(found.block)) : undefined;
    const stale = found !== undefined && String(found.block.name) === "read_file" &&
      path !== undefined && (writtenAt.get(path) ?? -1) > found.at;
    if (stale || !recent.has(callId)) due.push(i);
  }
  if (due.length < limits.clearStep) return undefined;
  const named = calls ?? callsOf(messages);
  let tokensFreed = 0;
  const cleared = due.map((i) => {
    const callId = resultIds[i] as string;
    const call = named.get(callId)?.block;
    const text = placeholder(call ? String(call.name) : "tool", call ? inputOf(call) : {});
    tokensFreed += Math.max(0, Math.ceil((resultChars[i] as number) / 4) - estimateTokens(text));
    return { callId, text };
  });
  return { results: cleared, tokensFreed };
}

/** What {@link planClear} looks for in a message: its results not cleared yet, and writes. */
interface ClearFacts {
  /** The length of each text result not cleared yet, in order. */
  results: readonly number[];
  /** Whether it calls a tool that writes a file it names. */
  writes: boolean;
}

const CLEAR_FACTS = new MessageFacts<ClearFacts>((message) => {
  const results: number[] = [];
  let writes = false;
  for (const block of message.content) {
    if (block.type === "tool_use") {
      writes ||= WRITERS.has(String(block.name)) && pathOf(inputOf(block)) !== undefined;
    } else if (block.type === "tool_result") {
      const chars = resultSize(block.content);
      if (chars !== undefined) results.push(chars);
    }
  }
  return { results, writes };
});

/**
 * False when {@link planClear} would find fewer than `clearStep` results due, which it does
 * before every model call and most of the time: with no file written, the results due are at most
 * the long ones before the last `keepRecentResults`. This runs over what is kept of each message
 * ({@link MessageFacts}), not over the messages. True when a closer look is needed.
 */
function mayClear(
  messages: readonly ConversationMessage[],
  limits: { keepRecentResults: number; clearStep: number },
): boolean {
  const facts = CLEAR_FACTS.of(messages);
  let recent = limits.keepRecentResults;
  let due = 0;
  for (let at = facts.length - 1; at >= 0; at--) {
    const { results, writes } = facts[at] as ClearFacts;
    if (writes) return true;
    for (let i = results.length - 1; i >= 0; i--) {
      if (recent > 0) recent--;
      else if ((results[i] as number) >= MIN_CHARS) due++;
    }
  }
  return due >= limits.clearStep;
}

/**
 * The size of a result not cleared yet, in characters: a text's length; for content blocks (an
 * MCP tool's image), their text and each image's tokens at four characters a token. Undefined
 * for a cleared result.
 */
function resultSize(content: unknown): number | undefined {
  if (typeof content === "string") {
    return content.startsWith(CLEARED_PREFIX) ? undefined : content.length;
  }
  if (!Array.isArray(content)) return undefined;
  let chars = 0;
  for (const block of content as { type?: unknown; text?: unknown; source?: unknown }[]) {
    if (typeof block.text === "string") chars += block.text.length;
    else if (block.type === "image") chars += estimateTokens([block]) * 4;
  }
  return chars;
}

/** Every call of the conversation by id: its block and the index of its message. */
function callsOf(
  messages: readonly ConversationMessage[],
): Map<string, { block: ConversationMessage["content"][number]; at: number }> {
  const calls = new Map<string, { block: ConversationMessage["content"][number]; at: number }>();
  for (let at = 0; at < messages.length; at++) {
    for (const block of (messages[at] as ConversationMessage).content) {
      if (block.type === "tool_use") calls.set(String(block.id), { block, at });
    }
  }
  return calls;
}

function inputOf(block: ConversationMessage["content"][number]): Record<string, unknown> {
  return (block.input ?? {}) as Record<string, unknown>;
}

function pathOf(input: Record<string, unknown>): string | undefined {
  const path = input.path ?? input.file_path;
  return typeof path === "string" ? path : undefined;
}

function placeholder(name: string, input: Record<string, unknown>): string {
  const key = input.path ?? input.file_path ?? input.command ?? input.pattern;
  const what = typeof key === "string" ? ` ${JSON.stringify(key.slice(0, 120))}` : "";
  return `${CLEARED_PREFIX} to save context: ${name}${what}. Run it again if you need its output.]`;
}
