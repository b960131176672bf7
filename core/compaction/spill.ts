import type { ConversationMessage, SpilledResult } from "../../events/event_types.ts";

/** Characters of a spilled output the model sees at most. */
const PREVIEW_CHARS = 2_000;

/** Where a spilled output is kept, relative to the workspace. */
export function spillPath(callId: string): string {
  return `.rein/outputs/${callId.replace(/[^A-Za-z0-9_-]/g, "_")}.txt`;
}

/**
 * Layer 1, the tool-result budget: results longer than `resultChars`, then (in the last message)
 * the largest of a round whose results together pass `roundChars`, are kept whole in a file and
 * replaced by a preview naming it. Results already replaced are short and never chosen again.
 * Pure; the caller writes the files.
 */
export function planSpill(
  messages: readonly ConversationMessage[],
  limits: { resultChars: number; roundChars: number },
): { spilled: SpilledResult[]; texts: Map<string, string> } {
  const chosen = new Map<string, string>();
  messages.forEach((message, index) => {
    if (message.role !== "user") return;
    const results = message.content.flatMap((block) =>
      block.type === "tool_result" && typeof block.content === "string"
        ? [{ callId: String(block.tool_use_id), text: block.content }]
        : []
    );
    for (const result of results) {
      if (result.text.length > limits.resultChars) chosen.set(result.callId, result.text);
    }
    if (index !== messages.length - 1) return;
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
  });
  const spilled = [...chosen].map(([callId, text]) => {
    const path = spillPath(callId);
    return { callId, path, chars: text.length, preview: preview(text, path) };
  });
  return { spilled, texts: chosen };
}

function preview(text: string, path: string): string {
  const head = text.slice(0, PREVIEW_CHARS);
  const cut = head.lastIndexOf("\n");
  const shown = cut > PREVIEW_CHARS / 2 ? head.slice(0, cut) : head;
  const lines = text.split("\n").length;
  return `${shown}\n\n[Output too large for the context: ${text.length.toLocaleString("en-US")} ` +
    `characters, ${lines.toLocaleString("en-US")} lines; the first ${shown.length} are above. ` +
    `The whole output is in ${path}: read it with read_file (offset and limit) or search it ` +
    "with grep.]";
}
