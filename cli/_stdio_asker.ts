/**
 * The person behind `--permission-prompt-tool stdio`: a program driving rein over
 * `--input-format stream-json` (the Claude Agent SDK with a `canUseTool` callback) is asked about
 * a call with a `can_use_tool` control request on stdout, and answers with a `control_response`
 * on stdin, as Claude Code asks it. Its answer is recorded as a person's (`permission.decided`),
 * so replay serves it without the program.
 */
import type {
  PermissionAnswer,
  PermissionAsker,
  PermissionQuestion,
} from "../core/permissions/permissions_mechanism.ts";
import { fromClaudeInput, toClaudeCall } from "../core/hooks/claude_tool_names.ts";

/** A `control_response` line as the program writes it, read. */
export interface ControlReply {
  requestId: string;
  /** The `response` object of a success; undefined for an error. */
  response: Record<string, unknown> | undefined;
  /** The error of a failed request. */
  error?: string;
}

/** Asks over the stream: {@link StdioAsker.ask} writes, {@link StdioAsker.receive} answers. */
export class StdioAsker {
  readonly #write: (line: Record<string, unknown>) => void;
  readonly #cwd: string;
  readonly #pending = new Map<string, (reply: ControlReply) => void>();
  #next = 0;
  #closed = false;

  /** `write` prints one JSON line on stdout; paths are made absolute against `cwd`. */
  constructor(write: (line: Record<string, unknown>) => void, cwd: string) {
    this.#write = write;
    this.#cwd = cwd;
  }

  /** The asker the permissions mechanism calls. */
  readonly ask: PermissionAsker = (question, signal) => {
    if (this.#closed) {
      return Promise.resolve({ answer: "no", reason: "standard input was closed" });
    }
    const requestId = `rein-permission-${++this.#next}`;
    const claude = toClaudeCall(question.tool, question.input, this.#cwd);
    return new Promise<PermissionAnswer>((resolve) => {
      const onAbort = () => {
        this.#pending.delete(requestId);
        this.#write({ type: "control_cancel_request", request_id: requestId });
        resolve({ answer: "no", reason: "the turn was cancelled", cancelled: true });
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(requestId, (reply) => {
        signal.removeEventListener("abort", onAbort);
        resolve(answerOf(reply, question, claude.tool_input, this.#cwd));
      });
      this.#write({
        type: "control_request",
        request_id: requestId,
        request: {
          subtype: "can_use_tool",
          tool_name: claude.tool_name,
          input: claude.tool_input,
          tool_use_id: question.callId,
          decision_reason: question.asked,
          permission_suggestions: suggestions(question),
          ...(question.protectedPath === undefined ? {} : { blocked_path: question.protectedPath }),
          ...(question.agent === "lead" ? {} : { agent_id: question.agent }),
        },
      });
    });
  };

  /** Answers the question `reply` is for; false when no question waits for it. */
  receive(reply: ControlReply): boolean {
    const answer = this.#pending.get(reply.requestId);
    if (answer === undefined) return false;
    this.#pending.delete(reply.requestId);
    answer(reply);
    return true;
  }

  /** Standard input closed: every question waiting is refused, and later ones are too. */
  close(): void {
    this.#closed = true;
    for (const [requestId, answer] of this.#pending) {
      this.#pending.delete(requestId);
      answer({ requestId, response: undefined, error: "standard input was closed" });
    }
  }
}

/**
 * The person's answer in a reply. `allow` runs the call once (or saves its rule when the program
 * added it to the session's or the project's rules), with the program's `updatedInput` when it
 * changed the call (in Claude Code's field names, as it was asked; recorded with the answer, so
 * replay runs the same), except for a write under `.claude/` or `.git/`, whose file is the one
 * asked about; `deny` refuses it with the program's message, and `interrupt` also ends the turn.
 * `asked` is the input as the program was shown it. Pure.
 */
export function answerOf(
  reply: ControlReply,
  question: PermissionQuestion,
  asked: Record<string, unknown>,
  cwd: string,
): PermissionAnswer {
  const response = reply.response;
  if (response === undefined) {
    return { answer: "no", reason: `the permission prompt failed: ${reply.error ?? "no answer"}` };
  }
  if (response.behavior === "allow") {
    const updated = response.updatedInput;
    const answer = savesRule(response.updatedPermissions) ? "always" : "yes";
    if (updated === undefined || sameJson(updated, asked)) return { answer };
    if (typeof updated !== "object" || updated === null || Array.isArray(updated)) {
      return { answer: "no", reason: "the permission prompt's updatedInput is not an object" };
    }
    if (question.protectedPath !== undefined) {
      return {
        answer: "no",
        reason: "the permission prompt changed the input of a write under .claude/ or .git/, " +
          "which runs only as asked",
      };
    }
    const input = fromClaudeInput(question.tool, updated as Record<string, unknown>, cwd);
    return { answer, input };
  }
  if (response.behavior === "deny") {
    const message = typeof response.message === "string" ? response.message : "";
    return {
      answer: "no",
      ...(message ? { reason: message } : {}),
      ...(response.interrupt === true ? { cancelled: true } : {}),
    };
  }
  return {
    answer: "no",
    reason: `the permission prompt answered ${JSON.stringify(response.behavior)}, ` +
      'not "allow" or "deny"',
  };
}

/** The rule "always allow" would save, as Claude Code suggests it. */
function suggestions(question: PermissionQuestion): Record<string, unknown>[] {
  if (question.protectedPath !== undefined) return [];
  return [{
    type: "addRules",
    rules: [ruleValue(question.suggestion)],
    behavior: "allow",
    destination: "localSettings",
  }];
}

/** `Bash(npm test *)` as the SDK's `{toolName, ruleContent}`. Pure. */
function ruleValue(rule: string): Record<string, string> {
  const open = rule.indexOf("(");
  if (open === -1 || !rule.endsWith(")")) return { toolName: rule };
  return { toolName: rule.slice(0, open), ruleContent: rule.slice(open + 1, -1) };
}

/** Whether the program kept the suggested rule (an `addRules` allow in `updatedPermissions`). */
function savesRule(updates: unknown): boolean {
  return Array.isArray(updates) &&
    updates.some((update) =>
      typeof update === "object" && update !== null &&
      (update as Record<string, unknown>).type === "addRules" &&
      (update as Record<string, unknown>).behavior === "allow"
    );
}

function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) =>
      typeof v === "object" && v !== null && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => x < y ? -1 : x > y ? 1 : 0))
        : v,
  );
}
