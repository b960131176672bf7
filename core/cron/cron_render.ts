import type { Envelope } from "../../events/event_types.ts";
import { type RenderedLine, renderedLine } from "../state/rendered_line.ts";

/**
 * A cron firing as the REPL shows it: `— cron job c1 fired for <minute>`, with whether it was
 * late and how many times were missed. Nothing for cron's other events (the tools' results say
 * what they changed); undefined for another mechanism's event. Pure.
 */
export function renderCronEvent(event: Envelope): readonly RenderedLine[] | undefined {
  switch (event.type) {
    case "cron.fired": {
      const { id, minute, late, missed } = event.data;
      const lateness = late ? `, late${missed > 0 ? ` (${missed} earlier times missed)` : ""}` : "";
      return [renderedLine(`— cron job ${id} fired for ${minute}${lateness}`, "dim")];
    }
    case "cron.scheduled":
    case "cron.cancelled":
    case "cron.delivered":
    case "cron.read":
      return [];
    default:
      return undefined;
  }
}
