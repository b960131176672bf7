import type { Envelope } from "../../events/event_types.ts";

/** What a timeline row is about: its colour and filter on the page. */
export type ItemKind =
  | "turn"
  | "prompt"
  | "model"
  | "tool"
  | "permission"
  | "hook"
  | "compaction"
  | "error"
  | "mail"
  | "agent"
  | "task"
  | "other";

/** One event of a session as the page's timeline shows it: a row in its agent's lane. */
export interface TimelineItem {
  seq: number;
  ts: string;
  agent: string;
  type: string;
  kind: ItemKind;
  /** One line: what happened. */
  title: string;
  /** The long part (a tool's input or result, a prompt, a summary), cut at {@link DETAIL_LIMIT}. */
  detail?: string;
  /** Characters of the whole detail, when it was cut (the page fetches the event for the rest). */
  fullSize?: number;
  /** Mail: the lanes it went to. */
  to?: string[];
  /** Model responses: tokens in and out; latency since the agent's request, when known. */
  tokens?: { input: number; output: number; cacheRead: number };
  latencyMs?: number;
  /** Tool calls and their results, permission decisions and hooks about a call: the call. */
  callId?: string;
  /**
   * Spilled outputs the row names (a `context.spilled` event's files, a result that says where
   * the rest of it is kept): file names in the log's `outputs` folder (`.rein/outputs/`), which
   * the page links to.
   */
  outputs?: string[];
}

/** Characters of a detail sent with the row; a larger one is collapsed and fetched on demand. */
export const DETAIL_LIMIT = 2_000;

/** `text` cut at {@link DETAIL_LIMIT}, with the whole size when it was cut. Pure. */
function detailOf(text: string): Pick<TimelineItem, "detail" | "fullSize"> {
  if (text.length <= DETAIL_LIMIT) return { detail: text };
  return { detail: text.slice(0, DETAIL_LIMIT), fullSize: text.length };
}

/** A spilled output's path as rein writes it (`spillPath`), relative to the workspace. */
const OUTPUT_PATH = /(?:^|[\s"'(])\.rein\/outputs\/([A-Za-z0-9_-]+\.txt)\b/g;

/** The file names of the spilled outputs `text` names, each once. Pure. */
function outputsIn(text: string): Pick<TimelineItem, "outputs"> {
  const names = [...new Set(Array.from(text.matchAll(OUTPUT_PATH), (m) => m[1] as string))];
  return names.length > 0 ? { outputs: names } : {};
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "";
}

/**
 * The timeline row of `event`, from its payload alone (a model response's latency is added by
 * the reader of a page, which sees the request). Pure.
 */
export function timelineItem(event: Envelope): TimelineItem {
  const base = { seq: event.seq, ts: event.ts, agent: event.agent, type: event.type };
  const row = (kind: ItemKind, title: string, more: Partial<TimelineItem> = {}): TimelineItem => ({
    ...base,
    kind,
    title,
    ...more,
  });
  switch (event.type) {
    case "session.started":
      return row("turn", `session started (${event.data.model})`);
    case "turn.started":
      return row("turn", "turn started");
    case "turn.ended":
      return row(
        event.data.reason === "failed" ? "error" : "turn",
        `turn ended: ${event.data.reason}${event.data.message ? ` (${event.data.message})` : ""}`,
      );
    case "user.prompted":
      return row(
        "prompt",
        event.data.refused ? "prompt refused" : "prompt",
        detailOf(event.data.text),
      );
    case "model.requested":
      return row(
        "model",
        `model request${event.data.attempt > 1 ? ` (attempt ${event.data.attempt})` : ""} ` +
          `${event.data.model}${event.data.purpose ? ` for ${event.data.purpose}` : ""}`,
      );
    case "model.responded": {
      const { usage, content, stopReason } = event.data;
      const text = content.flatMap((b) => b.type === "text" ? [b.text] : []).join("\n");
      const calls = content.flatMap((b) => b.type === "tool_use" ? [b.name] : []);
      return row(
        "model",
        `model answered: ${stopReason ?? "no stop reason"}` +
          (calls.length > 0 ? `, calls ${calls.join(", ")}` : ""),
        {
          ...(text ? detailOf(text) : {}),
          tokens: {
            input: usage.input_tokens,
            output: usage.output_tokens,
            cacheRead: usage.cache_read_input_tokens ?? 0,
          },
        },
      );
    }
    case "model.failed": {
      const { kind, status, message, retryInMs } = event.data;
      return row(
        "error",
        `model failed: ${kind}${status === null ? "" : ` ${status}`}` +
          (retryInMs === null ? ", no retry" : `, retry in ${retryInMs} ms`),
        detailOf(message),
      );
    }
    case "model.cancelled":
      return row("error", "model call cancelled");
    case "tool.requested":
      return row("tool", `call ${event.data.name}`, {
        ...detailOf(json(event.data.input)),
        callId: event.data.callId,
      });
    case "tool.completed": {
      const { name, isError, durationMs, outcome, content, callId } = event.data;
      return row(
        isError ? "error" : "tool",
        `${name} ${outcome ?? (isError ? "failed" : "done")} in ${durationMs} ms`,
        { ...detailOf(content), callId, ...outputsIn(content) },
      );
    }
    case "permission.decided":
      return row(
        "permission",
        `${event.data.decision} ${event.data.tool} (${event.data.source})`,
        { detail: event.data.reason, callId: event.data.callId },
      );
    case "hook.ran":
      return row("hook", `hook ${event.data.hookEvent}: ${event.data.decision}`, {
        ...detailOf(`$ ${event.data.command}\n${event.data.stdout}${event.data.stderr}`),
        ...(event.data.callId ? { callId: event.data.callId } : {}),
      });
    case "compaction.started":
      return row("compaction", `compaction started (${event.data.trigger})`);
    case "compaction.completed":
      return row(
        "compaction",
        `compacted ${event.data.tokensBefore} → ${event.data.tokensAfter} tokens`,
        detailOf(event.data.summary),
      );
    case "compaction.failed":
      return row("error", `compaction failed`, detailOf(event.data.message));
    case "context.spilled":
      return row(
        "compaction",
        `spilled ${event.data.results.length} result(s) to files`,
        {
          ...detailOf(json(event.data.results)),
          ...outputsIn(event.data.results.map((r) => ` ${r.path}`).join("")),
        },
      );
    case "mail.sent":
      return row(
        "mail",
        `mail to ${event.data.to}${event.data.summary ? `: ${event.data.summary}` : ""}`,
        {
          ...detailOf(event.data.content),
          to: event.data.recipients,
        },
      );
    case "agent.spawned":
      return row(
        "agent",
        `${event.data.teammate ? "teammate" : "subagent"} spawned by ${event.data.parent} ` +
          `(${event.data.teammate?.role ?? event.data.type})`,
        detailOf(event.data.teammate?.prompt ?? event.data.description),
      );
    default:
      return otherItem(event, row);
  }
}

/** The row of an event without a shape of its own here: its type and payload. */
function otherItem(
  event: Envelope,
  row: (kind: ItemKind, title: string, more?: Partial<TimelineItem>) => TimelineItem,
): TimelineItem {
  const kind: ItemKind = event.type.startsWith("task.")
    ? "task"
    : event.type.startsWith("agent.")
    ? "agent"
    : event.type.startsWith("hook.")
    ? "hook"
    : event.type.startsWith("permission.")
    ? "permission"
    : event.type.startsWith("context.") || event.type.startsWith("compaction.")
    ? "compaction"
    : "other";
  return row(kind, event.type.replace(".", " "), detailOf(json(event.data)));
}
