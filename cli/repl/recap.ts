import type { Conversation } from "../../core/state/conversation.ts";

/** Lines of an answer shown when a session is reopened. */
const ANSWER_LINES = 4;

/**
 * The last `exchanges` prompts of a reopened conversation, each with the start of its answer, so
 * the user sees where they left off: `> prompt` lines and a few lines of the answer text. Tool
 * results and calls are left out. Pure.
 */
export function recap(conversation: Conversation, exchanges = 2): string[] {
  const found: { prompt: string; answer: string }[] = [];
  let answer = "";
  for (let i = conversation.messages.length - 1; i >= 0 && found.length < exchanges; i--) {
    const message = conversation.messages[i];
    if (!message) continue;
    const text = message.content
      .flatMap((block) => block.type === "text" ? [String(block.text)] : [])
      .join("\n").trim();
    if (message.role === "assistant") {
      if (!answer && text) answer = text;
    } else if (text) {
      found.unshift({ prompt: text, answer });
      answer = "";
    }
  }
  return found.flatMap(({ prompt, answer }) => {
    const lines = answer ? answer.split("\n") : [];
    const shown = lines.slice(0, ANSWER_LINES);
    if (lines.length > ANSWER_LINES) shown.push("…");
    return [`> ${prompt.split("\n")[0]}`, ...shown, ""];
  });
}
