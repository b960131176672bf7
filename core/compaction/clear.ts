import type { ContextCleared, ConversationMessage } from "../../events/event_types.ts";
import { estimateTokens } from "./estimate.ts";

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
  const calls = new Map<string, { name: string; input: Record<string, unknown>; at: number }>();
  const writtenAt = new Map<string, number>();
  const results: { callId: string; chars: number; at: number }[] = [];
  // Plain loops: this runs before every model call, over the whole conversation.
  for (let at = 0; at < messages.length; at++) {
    for (const block of (messages[at] as ConversationMessage).content) {
      if (block.type === "tool_use") {
        const input = (block.input ?? {}) as Record<string, unknown>;
        const name = String(block.name);
        calls.set(String(block.id), { name, input, at });
        if (WRITERS.has(name)) {
          const path = pathOf(input);
          if (path !== undefined) writtenAt.set(path, at);
        }
      } else if (block.type === "tool_result" && typeof block.content === "string") {
        if (block.content.startsWith(CLEARED_PREFIX)) continue;
        results.push({ callId: String(block.tool_use_id), chars: block.content.length, at });
      }
    }
  }
  const recent = new Set(results.slice(-limits.keepRecentResults).map((r) => r.callId));
  const due = results.filter((result) => {
    if (result.chars < MIN_CHARS) return false;
    const call = calls.get(result.callId);
    const path = call ? pathOf(call.input) : undefined;
    const stale = call?.name === "read_file" && path !== undefined &&
      (writtenAt.get(path) ?? -1) > call.at;
    return stale || !recent.has(result.callId);
  });
  if (due.length < limits.clearStep) return undefined;
  let tokensFreed = 0;
  const cleared = due.map((result) => {
    const call = calls.get(result.callId);
    const text = placeholder(call?.name ?? "tool", call?.input ?? {});
    tokensFreed += Math.max(0, Math.ceil(result.chars / 4) - estimateTokens(text));
    return { callId: result.callId, text };
  });
  return { results: cleared, tokensFreed };
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
