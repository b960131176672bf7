import type { Envelope } from "../../events/event_types.ts";
import { type RenderedLine, renderedLine } from "../state/rendered_line.ts";

/**
 * A change of permission mode as the REPL shows it: `— permission mode: acceptEdits`. Nothing for
 * a decision (the call's line and result show it) or a resolved path; undefined for another
 * mechanism's event. Pure.
 */
export function renderPermissionEvent(event: Envelope): readonly RenderedLine[] | undefined {
  switch (event.type) {
    case "permission.mode_changed":
      return [renderedLine(`— permission mode: ${event.data.mode}`, "dim")];
    case "permission.decided":
    case "permission.path_resolved":
      return [];
    default:
      return undefined;
  }
}
