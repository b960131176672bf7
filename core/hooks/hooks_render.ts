import type { Envelope } from "../../events/event_types.ts";
import { type RenderedLine, renderedLine } from "../state/rendered_line.ts";

/**
 * A hook run as the REPL shows it: nothing when its command exited 0, else a line with the hook
 * event, the command and what was decided. Undefined for another mechanism's event. Pure.
 */
export function renderHookEvent(event: Envelope): readonly RenderedLine[] | undefined {
  switch (event.type) {
    case "hook.ran": {
      const { exitCode, ending, hookEvent, command, decision } = event.data;
      if (ending === "exited" && exitCode === 0) return [];
      return [
        renderedLine(`${hookEvent} hook ${JSON.stringify(command)}: ${decision}`, "yellow"),
      ];
    }
    case "hook.started":
      return [];
    default:
      return undefined;
  }
}
