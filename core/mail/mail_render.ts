import type { Envelope } from "../../events/event_types.ts";
import type { ReportContext } from "../mechanism.ts";
import { type RenderedLine, renderedLine, type ReportSection } from "../state/rendered_line.ts";
import type { State } from "../state/state.ts";
import { sessionMail } from "./mail_of.ts";

/** How much of a message a render line shows. */
const PREVIEW_CHARS = 80;

/**
 * The line the REPL and `-p`'s progress show for mail: `✉ lead → alice: <summary or the text's
 * first line>` as it is sent, `✉ alice read 2 messages` for a check_inbox. Undefined for
 * another mechanism's event. Pure.
 */
export function renderMailEvent(event: Envelope): readonly RenderedLine[] | undefined {
  if (event.type === "mail.sent") {
    const { from, recipients, content, summary } = event.data;
    const to = event.data.to === "*" ? `* (${recipients.join(", ")})` : recipients.join(", ");
    return [renderedLine(`✉ ${from} → ${to}: ${preview(summary ?? content)}`, "cyan")];
  }
  if (event.type === "mail.read") {
    const count = event.data.ids.length;
    return [
      renderedLine(`✉ ${event.agent} read ${count} message${count === 1 ? "" : "s"}`, "dim"),
    ];
  }
  return undefined;
}

/**
 * What `rein state` shows of a session's mail: how much was sent and delivered, and each agent's
 * unread. None in a session without mail. Pure.
 */
export function reportMail(state: State, context: ReportContext): ReportSection[] {
  const mail = sessionMail(state, context.session);
  if (mail.sent === 0) return [];
  const unread = Object.entries(mail.unread).map(([agent, letters]) =>
    renderedLine(`${agent}: ${letters.length} unread, oldest from ${letters[0]?.from}`)
  );
  return [{
    title: "mail",
    lines: [
      renderedLine(`${mail.sent} sent, ${mail.delivered} delivered`),
      ...unread,
    ],
  }];
}

/** The first line of `text`, cut to {@link PREVIEW_CHARS}. */
function preview(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
}
