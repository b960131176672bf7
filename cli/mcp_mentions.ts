import type { Harness } from "../core/harness.ts";
import type { AgentLoop } from "../core/loop/agent_loop.ts";
import { attachMcpResources } from "../core/mcp/mod.ts";

/**
 * Attach the `@server:uri` resources of the person's prompt `text` to `session`'s next request
 * (REPL and `-p`, as Claude Code does: see core/mcp's `attachMcpResources`), before the prompt is
 * run; `onNote` gets one line for each mention left out. Resolves to how many were attached.
 */
export function attachMentions(
  harness: Harness,
  session: AgentLoop,
  text: string,
  onNote: (line: string) => void,
): Promise<number> {
  if (!text.includes("@")) return Promise.resolve(0);
  return attachMcpResources(
    {
      effects: harness.deps.effects,
      append: (events) => harness.store.append(events),
      session: session.id,
      agent: session.agent,
      workspace: session.view.workspace,
      onNote,
    },
    text,
    new AbortController().signal,
  );
}
