import type { ConversationMessage, SpilledResult } from "../../events/event_types.ts";
import { formatNumber } from "../tools/_format.ts";
import { MessageFacts } from "./_message_facts.ts";

/** Characters of a spilled output the model sees at most. */
const PREVIEW_CHARS = 2_000;

/** Where a spilled output is kept, relative to the workspace. */
export function spillPath(callId: string): string {
  return `.rein/outputs/${callId.replace(/[^A-Za-z0-9_-]/g, "_")}.txt`;
}

/**
 * Layer 1, the tool-result budget: results longer than `resultChars`, then (in the last message)
 * the largest of a round whose results together pass `roundChars`, are kept whole in a file and
 * replaced by a preview naming it (of a result of content blocks, its text: its images stay).
 * Results already replaced are short and never chosen again. Pure; the caller writes the files.
 */
export function planSpill(
  messages: readonly ConversationMessage[],
  limits: { resultChars: number; roundChars: number },
): { spilled: SpilledResult[]; texts: Map<string, string> } {
  const chosen = new Map<string, string>();
  const lastIndex = messages.length - 1;
  const longest = LONGEST.of(messages);
  // Plain loops: this runs before every model call, over the whole conversation.
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as ConversationMessage;
    if (message.role !== "user") continue;
    const last = index === lastIndex;
    if (!last && (longest[index] as number) <= limits.resultChars) continue;
    const results: { callId: string; text: string }[] | undefined = last ? [] : undefined;
    for (const block of message.content) {
      if (block.type !== "tool_result") continue;
      const text = resultText(block.content);
      if (text === undefined) continue;
      if (text.length > limits.resultChars) chosen.set(String(block.tool_use_id), text);
      results?.push({ callId: String(block.tool_use_id), text });
    }
    if (results === undefined) continue;
    let total = results.reduce(
      (sum, r) => sum + (chosen.has(r.callId) ? PREVIEW_CHARS : r.text.length),
      0,
    );
    const bySize = results.filter((r) => !chosen.has(r.callId)).sort((a, b) =>
      b.text.length - a.text.length
    );
    for (const result of bySize) {
      if (total <= limits.roundChars || result.text.length <= PREVIEW_CHARS) break;
      chosen.set(result.callId, result.text);
      total -= result.text.length - PREVIEW_CHARS;
    }
  }
  const spilled = [...chosen].map(([callId, text]) => {
    const path = spillPath(callId);
    return { callId, path, chars: text.length, preview: preview(text, path) };
  });
  return { spilled, texts: chosen };
}

/** The length of each message's longest text result (0 for none). */
const LONGEST = new MessageFacts((message) => {
  let longest = 0;
  if (message.role !== "user") return longest;
  for (const block of message.content) {
    if (block.type === "tool_result") {
      longest = Math.max(longest, resultText(block.content)?.length ?? 0);
    }
  }
  return longest;
});

/**
 * A result's text: a text result's, or the text blocks of a result of content blocks (an MCP
 * tool's, whose images a spill keeps in place) joined by newlines.
 */
function resultText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = (content as { type?: unknown; text?: unknown }[]).flatMap((block) =>
    block.type === "text" && typeof block.text === "string" ? [block.text] : []
  );
  return texts.length > 0 ? texts.join("\n") : undefined;
}

function preview(text: string, path: string): string {
  const head = text.slice(0, PREVIEW_CHARS);
  const cut = head.lastIndexOf("\n");
  const shown = cut > PREVIEW_CHARS / 2 ? head.slice(0, cut) : head;
  return `${shown}\n\n[Output too large for the context: ${formatNumber(text.length)} ` +
    `characters, ${formatNumber(lineCount(text))} lines; the first ${shown.length} are above. ` +
    `The whole output is in ${path}: read it with read_file (offset and limit) or search it ` +
    "with grep.]";
}

/** `text.split("\n").length`, without the array. */
function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}
