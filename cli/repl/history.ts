import type { Catalog } from "../../core/state/catalog.ts";
import { HISTORY_SIZE } from "./_line_reader.ts";

/**
 * The prompts Up/Down recall when the REPL starts: the latest prompts of the workspace's log (its
 * sessions' main agents, as the catalog keeps them), newest first, each once, on one line, at
 * most {@link HISTORY_SIZE}. A fold of the log, so nothing is kept beside it, and prompts are as
 * redacted as the log is. Pure.
 */
export function promptHistory(state: { catalog: Catalog }): string[] {
  const prompts = state.catalog.recentPrompts.map((text) => text.replaceAll("\n", " "));
  return [...new Set(prompts.reverse())].slice(0, HISTORY_SIZE);
}
