import type { Envelope } from "../../events/event_types.ts";
import { type RenderedLine, renderedLine } from "../state/rendered_line.ts";
import type { HookEventName } from "./hook_input.ts";
import { interpretHookRun } from "./hook_verdict.ts";

/**
 * A hook run as the REPL shows it: when its command exited 0, only what it said for the user
 * (`systemMessage`, a `continue: false` with its `stopReason`, output that could not be read), as
 * Claude Code shows them; else a line with the hook event, the command and what was decided.
 * Undefined for another mechanism's event. Pure.
 */
export function renderHookEvent(event: Envelope): readonly RenderedLine[] | undefined {
  switch (event.type) {
    case "hook.ran": {
      const { exitCode, ending, hookEvent, command, decision, envIgnored } = event.data;
      // The lines of its CLAUDE_ENV_FILE rein left out, in one line.
      const ignored = envIgnored === undefined ? [] : [
        renderedLine(
          `${hookEvent} hook ${JSON.stringify(command)}: CLAUDE_ENV_FILE lines left out: ` +
            envIgnored.join("; "),
          "yellow",
        ),
      ];
      if (ending === "exited" && exitCode === 0) {
        const verdict = interpretHookRun(hookEvent as HookEventName, event.data);
        return [
          ...ignored,
          ...verdict.userMessages.map((text) =>
            renderedLine(`${hookEvent} hook: ${text}`, "yellow")
          ),
          ...(verdict.stop === undefined ? [] : [
            renderedLine(
              `${hookEvent} hook stopped the agent${
                verdict.stop.reason ? `: ${verdict.stop.reason}` : ""
              }`,
              "yellow",
            ),
          ]),
        ];
      }
      return [
        renderedLine(`${hookEvent} hook ${JSON.stringify(command)}: ${decision}`, "yellow"),
        ...ignored,
      ];
    }
    case "hook.started":
      return [];
    default:
      return undefined;
  }
}
