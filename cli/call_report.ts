import type { Envelope, PermissionDecided, PermissionSource } from "../events/event_types.ts";

/** What is known about one call of a session, gathered from its events. */
interface CallStory {
  id: string;
  name: string;
  /** The call's input, as the report shows it (shortened). */
  input: string;
  decided?: PermissionDecided;
  hooks: string[];
  ran: boolean;
  outcome?: string;
  isError?: boolean;
}

/**
 * For every tool call of a session's events, in order: what it was, why it ran or not (the
 * permission decision and its source, the hooks that ran for it) and how it ended — what
 * `rein state` shows. Pure.
 */
export function callReport(events: Iterable<Envelope>): string[] {
  const report = new CallReport();
  for (const event of events) report.add(event);
  return report.lines();
}

/**
 * {@link callReport} built one event at a time, keeping only what it prints of each call (not the
 * events), so a long session's report is made as its events stream by.
 */
export class CallReport {
  readonly #calls = new Map<string, CallStory>();

  /** Take in one event of the session. */
  add(event: Envelope): void {
    const calls = this.#calls;
    switch (event.type) {
      case "model.responded":
        for (const block of event.data.content) {
          if (block.type !== "tool_use") continue;
          const id = String(block.id);
          calls.set(id, {
            id,
            name: String(block.name),
            input: brief(block.input),
            hooks: [],
            ran: false,
          });
        }
        break;
      case "permission.decided": {
        const call = calls.get(event.data.callId);
        if (call) call.decided = event.data;
        break;
      }
      case "hook.ran": {
        const call = event.data.callId === undefined ? undefined : calls.get(event.data.callId);
        call?.hooks.push(
          `${event.data.hookEvent} hook ${
            JSON.stringify(event.data.command)
          }: ${event.data.decision}`,
        );
        break;
      }
      case "tool.requested": {
        const call = calls.get(event.data.callId);
        if (call) call.ran = true;
        break;
      }
      case "tool.completed": {
        const call = calls.get(event.data.callId);
        if (!call) break;
        call.isError = event.data.isError;
        if (event.data.outcome !== undefined) call.outcome = event.data.outcome;
        break;
      }
    }
  }

  /** The report's lines for the events taken in so far. */
  lines(): string[] {
    return linesOf(this.#calls.values());
  }
}

function linesOf(calls: Iterable<CallStory>): string[] {
  const lines: string[] = [];
  for (const call of calls) {
    lines.push(`  ${call.id} ${call.name} ${call.input}`);
    lines.push(`      why     ${why(call)}`);
    for (const hook of call.hooks) lines.push(`      hook    ${hook}`);
    lines.push(`      result  ${result(call)}`);
  }
  return lines;
}

function why(call: CallStory): string {
  const { decided } = call;
  if (decided === undefined) {
    if (call.outcome === "blocked") return "blocked by a hook";
    return call.ran || call.outcome === undefined
      ? "no permission decision recorded (a session from before rein had permissions)"
      : "not decided (it never reached the permission check)";
  }
  const verdict = decided.decision === "allow" ? "allowed" : "denied";
  const asked = decided.asked ? ` (asked because ${decided.asked})` : "";
  return `${verdict} ${sourceText(decided.source)}${asked}`;
}

function sourceText(source: PermissionSource): string {
  switch (source.kind) {
    case "rule":
      return `by the rule "${source.rule}" ${
        source.file.startsWith("--") ? `from ${source.file}` : `in ${source.file}`
      }`;
    case "session":
      return `by the rule "${source.rule}", allowed earlier in the session`;
    case "destructive":
      return `as destructive: ${source.what}`;
    case "read_only":
      return "as read-only";
    case "mode":
      return `by the mode ${source.mode}`;
    case "hook":
      return `by the PreToolUse hook ${JSON.stringify(source.command)}`;
    case "user": {
      const said = source.answer === "always"
        ? `yes, don't ask again (saved "${source.rule}" in ${source.savedTo})`
        : source.answer === "no"
        ? `no${source.reason ? ` ("${source.reason}")` : ""}${source.cancelled ? ", Ctrl-C" : ""}`
        : "yes";
      return `by the user, who answered ${said}`;
    }
    case "headless":
      return source.suggestion === undefined
        ? "in a headless run that could not ask (only a person may allow it)"
        : `in a headless run that could not ask (--allowedTools "${source.suggestion}" would allow it)`;
  }
}

function result(call: CallStory): string {
  if (call.outcome !== undefined) return call.outcome;
  if (call.isError === undefined) {
    return call.ran ? "running, or stopped without a result" : "pending";
  }
  return call.isError ? "ran, failed" : "ran";
}

function brief(input: unknown): string {
  const text = JSON.stringify(input) ?? "";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
