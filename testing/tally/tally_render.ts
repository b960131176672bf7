import type { Envelope } from "../../events/event_types.ts";
import { type RenderedLine, renderedLine } from "../../core/state/rendered_line.ts";
import "./tally_extension.ts";

/**
 * The lines the REPL, `rein daemon` and `-p`'s progress show for a tally event (another's:
 * undefined). Pure.
 */
export function renderTally(event: Envelope): readonly RenderedLine[] | undefined {
  if (event.type === "tally.added") {
    return [renderedLine(`— tally +${event.data.by}, now ${event.data.total}`, "dim")];
  }
  if (event.type === "tally.asked") {
    return [renderedLine(`— asked to add ${event.data.by} to the tally`, "dim")];
  }
  return undefined;
}
