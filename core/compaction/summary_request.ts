import type { ConversationMessage } from "../../events/event_types.ts";
import type { MessagesRequest } from "../effects/model_client.ts";
import { isCutPoint } from "../state/context_edits.ts";
import { estimateTokens, messagesTokens } from "./estimate.ts";

/** Output tokens a summary may take at most. */
const SUMMARY_MAX_TOKENS = 16_000;

/** What the model is asked for when a conversation is compacted (s08, Claude Code's sections). */
export const SUMMARY_PROMPT =
  `Your task now is to write a summary of the conversation so far, so that the work can go on from the summary alone: everything before this point will be removed from your context. Do not call any tools: answer with the summary only, as text.

Write these sections, with headings, being specific (names, paths, commands, numbers, exact error messages):
1. Goal: what the user asked for, in their words where they matter, and every explicit request or constraint they gave.
2. Decisions: what was decided and why, including approaches tried and rejected.
3. Files: every file read, created or changed, and what was done to it; include short code snippets where the exact text matters.
4. Errors and fixes: the errors met and how each was fixed, or that it is still open.
5. Pending work: what is still to do, in order.
6. Current step: exactly what was being done right before this summary, and the next step to take, quoting the latest request if the work is mid-way.`;

/**
 * Where to cut an agent's messages so that the kept tail is at most `keepTokens` (but never
 * empty of a valid start): the earliest valid cut point whose tail fits, else the latest valid
 * cut point. Null when there is none, or nothing before it to summarise. Pure.
 */
export function planCut(
  messages: readonly ConversationMessage[],
  keepTokens: number,
): number | null {
  let best: number | null = null;
  let tail = 0;
  for (let i = messages.length - 1; i >= 1; i--) {
    tail += messagesTokens([messages[i]!]);
    if (!isCutPoint(messages, i)) continue;
    if (best === null || tail <= keepTokens) best = i;
    else break;
  }
  return best;
}

/**
 * The request that asks for the summary of the messages before `cutIndex`: the conversation's own
 * request (same system prompt and tools, so the cached prefix is reused) cut there, with the
 * summary instructions (and `focus`) as the last user input, no extended thinking, and a summary
 * output limit. When that would not fit `window`, the oldest messages are left out of it. Pure.
 */
export function summaryRequest(
  base: MessagesRequest,
  cutIndex: number,
  window: number,
  focus: readonly string[],
): MessagesRequest {
  const maxTokens = Math.min(base.max_tokens, SUMMARY_MAX_TOKENS, Math.floor(window / 4));
  let messages = base.messages.slice(0, cutIndex);
  const fixed = estimateTokens({ system: base.system, tools: base.tools }) + maxTokens +
    estimateTokens(SUMMARY_PROMPT) + 1_000;
  const room = window - fixed;
  // The earliest start that fits, else the latest one; a start is always a valid cut point.
  let start = 0;
  let size = messagesTokens(messages);
  if (size > room) {
    for (let i = 1; i < messages.length; i++) {
      size -= messagesTokens([messages[i - 1]!]);
      if (!isCutPoint(messages, i)) continue;
      start = i;
      if (size <= room) break;
    }
  }
  messages = messages.slice(start);
  if (start > 0) {
    const note = { type: "text", text: "[The earliest part of the conversation is left out.]" };
    if (messages[0]?.role === "user") {
      messages[0] = { role: "user", content: [note, ...messages[0].content] };
    } else messages.unshift({ role: "user", content: [note] });
  }
  const instructions = [SUMMARY_PROMPT, ...focus.map((f) => `Focus the summary on: ${f}`)]
    .join("\n\n");
  const ask = { type: "text", text: instructions };
  const last = messages.at(-1);
  if (last?.role === "user") {
    messages[messages.length - 1] = { role: "user", content: [...last.content, ask] };
  } else messages.push({ role: "user", content: [ask] });
  const { thinking: _thinking, ...rest } = base;
  return { ...rest, max_tokens: maxTokens, messages: messages as ConversationMessage[] };
}
