import type { Envelope } from "../../events/event_types.ts";
import { type RenderedLine, renderedLine } from "../state/rendered_line.ts";

/**
 * A command run as the REPL and `-p`'s progress show it: `— /review: ran git status --short, read
 * notes.md`, or why it was refused (red). Undefined for another mechanism's event. Pure.
 */
export function renderCommandEvent(event: Envelope): readonly RenderedLine[] | undefined {
  if (event.type !== "command.invoked") return undefined;
  const { name, shell, files, refused } = event.data;
  if (refused !== undefined) return [renderedLine(refused, "red")];
  const did = [
    ...shell.map((run) => `ran ${run.command}${run.isError ? " (failed)" : ""}`),
    ...files.map((file) => `read ${file}`),
  ];
  return [renderedLine(`— /${name}${did.length === 0 ? "" : `: ${did.join(", ")}`}`, "dim")];
}
