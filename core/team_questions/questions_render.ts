import type { Envelope } from "../../events/event_types.ts";
import { type RenderedLine, renderedLine } from "../state/rendered_line.ts";

/** What each answer is in words. */
const ANSWER: Record<string, string> = {
  yes: "allowed once",
  always: "allowed from now on",
  no: "refused",
};

/**
 * The lines for a teammate's question and its answer: `? alice asks to run bash (no permission
 * rule allows it)` and `? alice's bash: allowed once`. Undefined for another mechanism's event.
 * Pure.
 */
export function renderQuestionEvent(event: Envelope): readonly RenderedLine[] | undefined {
  if (event.type === "question.asked") {
    return [
      renderedLine(
        `? ${event.agent} asks to run ${event.data.tool} (${event.data.asked})`,
        "yellow",
      ),
    ];
  }
  if (event.type === "question.answered") {
    const why = event.data.reason === undefined ? "" : `: ${event.data.reason}`;
    return [
      renderedLine(
        `? ${event.data.to}'s call ${event.data.id}: ${ANSWER[event.data.answer]}${why}`,
        "dim",
      ),
    ];
  }
  return undefined;
}
