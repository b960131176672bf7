import { CONTINUE_PROMPT } from "../../core/state/conversation.ts";
import type { State } from "../../core/state/state.ts";
import { HISTORY_SIZE } from "./_line_reader.ts";

/**
 * The prompts Up/Down recall when the REPL starts: every prompt of the workspace's log (its
 * sessions' main agents), newest first, each once, at most {@link HISTORY_SIZE}. A fold of the
 * log, so nothing is kept beside it, and prompts are as redacted as the log is. Pure.
 */
export function promptHistory(state: State): string[] {
  const prompts: string[] = [];
  for (const id of state.sessions.order) {
    const view = state.sessions.byId[id];
    for (const message of view?.agents[view.mainAgent]?.messages ?? []) {
      if (message.role !== "user") continue;
      for (const block of message.content) {
        if (block.type === "text" && block.text !== CONTINUE_PROMPT) {
          prompts.push(String(block.text).replaceAll("\n", " "));
        }
      }
    }
  }
  return [...new Set(prompts.reverse())].slice(0, HISTORY_SIZE);
}
