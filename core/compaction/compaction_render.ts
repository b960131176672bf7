import type { CompactionTrigger, Envelope } from "../../events/event_types.ts";
import { type RenderedLine, renderedLine } from "../state/rendered_line.ts";

/**
 * Compaction as the REPL shows it: a compaction's start (and why), its result in tokens or its
 * failure, tool outputs kept out of the context in files, and old messages cut. Nothing for
 * cleared results; undefined for another mechanism's event. Pure.
 */
export function renderCompactionEvent(event: Envelope): readonly RenderedLine[] | undefined {
  switch (event.type) {
    case "compaction.started":
      return [
        renderedLine(
          `✻ Compacting the conversation (${COMPACTION_WORDS[event.data.trigger]})…`,
          "dim",
        ),
      ];
    case "compaction.completed": {
      const { tokensBefore, tokensAfter } = event.data;
      return [
        renderedLine(
          `✻ Compacted: about ${tokens(tokensBefore)} → ${tokens(tokensAfter)} tokens`,
          "dim",
        ),
      ];
    }
    case "compaction.failed":
      return [renderedLine(`Compaction failed: ${event.data.message}`, "yellow")];
    case "context.spilled":
      return event.data.results.map((result) =>
        renderedLine(`— ${tokens(result.chars)} characters of output kept in ${result.path}`, "dim")
      );
    case "context.snipped":
      return [
        renderedLine(
          `— ${event.data.to - event.data.from} old messages cut from the context`,
          "dim",
        ),
      ];
    case "context.cleared":
      return [];
    default:
      return undefined;
  }
}

/** What started a compaction, in words. */
const COMPACTION_WORDS: Record<CompactionTrigger, string> = {
  auto: "the context is nearly full",
  manual: "/compact",
  tool: "the model asked",
  reactive: "the prompt was too long",
};

function tokens(count: number): string {
  return count.toLocaleString("en-US");
}
