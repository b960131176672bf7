import type { Envelope } from "../../events/event_types.ts";
import type { ReportContext } from "../mechanism.ts";
import { type RenderedLine, renderedLine, type ReportSection } from "../state/rendered_line.ts";
import type { State } from "../state/state.ts";
import { pendingRequests, sessionProtocols } from "./protocols_of.ts";

/** A request's kind as a person reads it. */
const KIND: Record<string, string> = { shutdown: "shutdown", plan_approval: "plan approval" };

/**
 * The line the REPL and `-p`'s progress show for a protocol event: `⇄ lead asks alice: shutdown`,
 * `⇄ alice approved shutdown`, `⇄ shutdown of alice expired after 30000 ms: stopped`.
 * Undefined for another mechanism's event. Pure.
 */
export function renderProtocolEvent(event: Envelope): readonly RenderedLine[] | undefined {
  if (event.type === "protocol.requested") {
    const { from, to, kind } = event.data;
    return [renderedLine(`⇄ ${from} asks ${to}: ${KIND[kind] ?? kind}`, "cyan")];
  }
  if (event.type === "protocol.answered") {
    const { by, approve, reason } = event.data;
    const why = reason === undefined ? "" : `: ${reason.split("\n")[0]}`;
    return [renderedLine(`⇄ ${by} ${approve ? "approved" : "rejected"} ${event.data.id}${why}`)];
  }
  if (event.type === "protocol.expired") {
    const { id, timeoutMs, forced } = event.data;
    return [
      renderedLine(`⇄ ${id} unanswered after ${timeoutMs} ms${forced ? ": stopped" : ""}`, "dim"),
    ];
  }
  return undefined;
}

/** What `rein state` shows of a session's protocol requests: the pending ones. Pure. */
export function reportProtocols(state: State, context: ReportContext): ReportSection[] {
  if (sessionProtocols(state, context.session).order.length === 0) return [];
  const pending = pendingRequests(state, context.session);
  return [{
    title: "protocols",
    lines: pending.length === 0
      ? [renderedLine("no request pending")]
      : pending.map((request) =>
        renderedLine(`${request.id}: ${request.from} asks ${request.to}: ${KIND[request.kind]}`)
      ),
  }];
}
