import { isRecord } from "../settings/is_record.ts";
import type { HookEventName } from "./hook_input.ts";
import type { HookRun } from "./run_hook_command.ts";

/** A PreToolUse hook's say on a tool call; across hooks deny beats ask beats allow. */
export type HookPermissionDecision = "allow" | "deny" | "ask";

/**
 * What hooks decided about one event, from one run ({@linkcode interpretHookRun}) or all of an
 * event's runs ({@linkcode combineVerdicts}). Plain JSON data. An empty verdict (no optional
 * field, empty lists, `suppressOutput: false`) decides nothing: rein goes on as without hooks.
 */
export interface HookVerdict {
  /**
   * A hook said `continue: false`: the agent stops once this event is handled, whatever else
   * was decided; `reason` (its `stopReason`, possibly empty) is for the user.
   */
  stop?: { reason: string };
  /**
   * PreToolUse only. `deny`: the tool does not run and the model gets `reason` (exit code 2
   * with stderr, `permissionDecision: "deny"`, or the legacy `decision: "block"`). `allow`: the
   * call runs without asking (legacy `decision: "approve"` too); `ask`: the user is asked. For
   * allow and ask, `reason` is for the user. Hooks cannot lift a deny rule of the settings; that
   * is the caller's to enforce.
   */
  permission?: { decision: HookPermissionDecision; reason: string };
  /**
   * A hook blocked (exit code 2 with stderr, or `decision: "block"` with `reason`), meaning per
   * event: UserPromptSubmit drops the prompt and shows `reason` to the user; Stop makes the
   * agent go on with `reason` as the instruction; PostToolUse and PostToolUseFailure give
   * `reason` to the model (the tool already ran); TaskCreated and TaskCompleted refuse the task
   * change, telling the model `reason`. Never set for PreToolUse (see `permission`),
   * SessionStart or SessionEnd, which cannot block.
   */
  block?: { reason: string };
  /**
   * PreToolUse, and a PermissionRequest hook's allow: the tool input to run with instead, as the
   * hook wrote it, in Claude Code's shape (`fromClaudeInput` turns it into rein's). Absent when
   * the call is denied.
   */
  updatedInput?: Record<string, unknown>;
  /**
   * PermissionRequest only, with an allow: Claude Code's `updatedPermissions` (rules to add, a
   * mode to set), as the hook wrote them, to apply as if the person had chosen them.
   */
  updatedPermissions?: PermissionUpdate[];
  /** PermissionRequest only, with a deny: `interrupt: true`, the turn stops too. */
  interrupt?: boolean;
  /**
   * Text for the model's context, in hook order: `additionalContext`, or plain stdout of
   * UserPromptSubmit and SessionStart hooks.
   */
  additionalContext: string[];
  /** For the user: `systemMessage`s, failed or timed-out hooks, output that could not be read. */
  userMessages: string[];
  /** A hook asked (`suppressOutput: true`) that its stdout be kept out of the transcript. */
  suppressOutput: boolean;
}

/** Events whose hooks' plain stdout goes to the model. */
const PLAIN_TEXT_CONTEXT: ReadonlySet<HookEventName> = new Set([
  "UserPromptSubmit",
  "SessionStart",
  // A PreCompact hook's output is added to the summary's instructions.
  "PreCompact",
]);
/** Events whose hooks may answer `decision: "block"`. */
const BLOCKABLE: ReadonlySet<HookEventName> = new Set([
  "UserPromptSubmit",
  "PostToolUse",
  "Stop",
  "SubagentStop",
  "PreCompact",
  // The task is not created or not completed, and the model is told why.
  "TaskCreated",
  "TaskCompleted",
  // The worktree is not made, and the model is told why.
  "WorktreeCreate",
]);
/** Events whose hooks may give `hookSpecificOutput.additionalContext`. */
const CONTEXT_EVENTS: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "SessionStart",
  "SubagentStart",
  // As Claude Code: the agent goes on with it, as with a block's reason.
  "Stop",
  "SubagentStop",
]);
const PERMISSION_DECISIONS: readonly string[] = ["allow", "deny", "ask"];

/**
 * One of Claude Code's permission updates (a PermissionRequest hook's `updatedPermissions`, or
 * a `permission_suggestions` entry) that rein applies: rules added with a behavior, or the mode
 * set, each for a `destination` (`session`, `localSettings`, `projectSettings`, `userSettings`).
 */
export type PermissionUpdate =
  | {
    type: "addRules";
    /** Rules as Claude Code writes them: `Bash(npm test:*)`, `Edit`. */
    rules: string[];
    behavior: "allow" | "deny" | "ask";
    destination: string;
  }
  | { type: "setMode"; mode: string; destination: string };

/**
 * What one run of a hook for `event` decided, by Claude Code's rules. Pure; never throws.
 *
 * Exit 0: stdout starting with `{` is read as JSON output; other stdout is context for
 * UserPromptSubmit and SessionStart and ignored elsewhere. Exit 2: the hook blocks with its
 * stderr (see {@linkcode HookVerdict}); stdout, JSON or not, is ignored, so JSON cannot undo
 * it. Any other exit code, a timeout, a cancellation or a failure to start decides nothing and
 * gives a message for the user; so does stdout that is not valid JSON output (each bad field is
 * reported and skipped). Pass a run record with `command` to name the hook in messages.
 */
export function interpretHookRun(
  event: HookEventName,
  run: HookRun & { command?: string },
): HookVerdict {
  const verdict = emptyVerdict();
  const hook = run.command === undefined
    ? `${event} hook`
    : `${event} hook "${shorten(run.command)}"`;
  const stderr = run.stderr.trim();
  switch (run.ending) {
    case "timed_out":
      verdict.userMessages.push(
        `${hook} timed out after ${seconds(run.durationMs)} and was killed`,
      );
      return verdict;
    case "cancelled":
      verdict.userMessages.push(`${hook} was cancelled`);
      return verdict;
    case "failed_to_start":
      verdict.userMessages.push(`${hook} could not start: ${stderr}`);
      return verdict;
    case "exited":
      break;
  }
  if (run.exitCode === 2) {
    const reason = stderr === "" ? `Blocked by ${hook} (exit code 2, no message)` : stderr;
    if (event === "PreToolUse" || event === "PermissionRequest") {
      verdict.permission = { decision: "deny", reason };
    } else if (event === "SessionStart" || event === "SessionEnd" || event === "PostCompact") {
      verdict.userMessages.push(`${hook} exited with code 2: ${reason}`);
    } else verdict.block = { reason };
    return verdict;
  }
  if (run.exitCode !== 0) {
    verdict.userMessages.push(
      `${hook} failed with exit code ${run.exitCode}${stderr === "" ? "" : `: ${stderr}`}`,
    );
    return verdict;
  }
  const stdout = run.stdout.trim();
  if (stdout.startsWith("{")) return readJsonOutput(event, hook, stdout);
  if (stdout !== "" && PLAIN_TEXT_CONTEXT.has(event)) verdict.additionalContext.push(stdout);
  return verdict;
}

/**
 * One verdict for the runs of an event's hooks (which ran in parallel), given in settings
 * order. Pure.
 *
 * Any `continue: false` stops; any block blocks; deny beats ask beats allow; the reasons of the
 * hooks that decided so are joined by newlines. Contexts and user messages are kept in order.
 * `updatedInput` is the last one given by a hook that did not deny, and is dropped when the
 * combined decision is deny; a hook that rewrites the input without a decision counts too.
 * `updatedPermissions` are those of every hook, kept only when the combined decision is allow;
 * any `interrupt` interrupts.
 */
export function combineVerdicts(verdicts: readonly HookVerdict[]): HookVerdict {
  const combined = emptyVerdict();
  const stops = verdicts.flatMap((verdict) => verdict.stop ? [verdict.stop.reason] : []);
  if (stops.length > 0) combined.stop = { reason: joinReasons(stops) };
  const blocks = verdicts.flatMap((verdict) => verdict.block ? [verdict.block.reason] : []);
  if (blocks.length > 0) combined.block = { reason: joinReasons(blocks) };
  for (const decision of ["deny", "ask", "allow"] as const) {
    const reasons = verdicts.flatMap((verdict) =>
      verdict.permission?.decision === decision ? [verdict.permission.reason] : []
    );
    if (reasons.length > 0) {
      combined.permission = { decision, reason: joinReasons(reasons) };
      break;
    }
  }
  if (combined.permission?.decision !== "deny") {
    const rewrites = verdicts.filter((verdict) =>
      verdict.updatedInput !== undefined && verdict.permission?.decision !== "deny"
    );
    const last = rewrites.at(-1)?.updatedInput;
    if (last !== undefined) combined.updatedInput = last;
  }
  if (combined.permission?.decision === "allow") {
    const updates = verdicts.flatMap((verdict) => verdict.updatedPermissions ?? []);
    if (updates.length > 0) combined.updatedPermissions = updates;
  }
  if (verdicts.some((verdict) => verdict.interrupt === true)) combined.interrupt = true;
  for (const verdict of verdicts) {
    combined.additionalContext.push(...verdict.additionalContext);
    combined.userMessages.push(...verdict.userMessages);
    combined.suppressOutput ||= verdict.suppressOutput;
  }
  return combined;
}

/** A verdict that decides nothing. */
export function emptyVerdict(): HookVerdict {
  return { additionalContext: [], userMessages: [], suppressOutput: false };
}

function readJsonOutput(event: HookEventName, hook: string, stdout: string): HookVerdict {
  const verdict = emptyVerdict();
  let output: unknown;
  try {
    output = JSON.parse(stdout);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    verdict.userMessages.push(`${hook} wrote output that is not valid JSON: ${reason}`);
    return verdict;
  }
  if (!isRecord(output)) {
    verdict.userMessages.push(`${hook} wrote JSON that is not an object`);
    return verdict;
  }
  const fields = new FieldReader(output, hook, verdict.userMessages);

  if (fields.boolean("continue") === false) {
    verdict.stop = { reason: fields.string("stopReason") ?? "" };
  }
  const systemMessage = fields.string("systemMessage");
  if (systemMessage !== undefined) verdict.userMessages.push(systemMessage);
  verdict.suppressOutput = fields.boolean("suppressOutput") ?? false;

  const decision = fields.oneOf("decision", ["approve", "block"]);
  const reason = fields.string("reason") ?? "";
  if (event === "PreToolUse" && decision !== undefined) {
    verdict.permission = { decision: decision === "block" ? "deny" : "allow", reason };
  } else if (decision === "block" && BLOCKABLE.has(event)) {
    verdict.block = { reason: reason === "" ? `Blocked by ${hook}` : reason };
  }

  const specific = fields.record("hookSpecificOutput");
  if (specific === undefined) return verdict;
  const inner = new FieldReader(specific, hook, verdict.userMessages, "hookSpecificOutput.");
  const eventName = inner.string("hookEventName");
  if (eventName !== undefined && eventName !== event) {
    verdict.userMessages.push(
      `${hook} wrote hookSpecificOutput for "${eventName}", so rein ignored it`,
    );
    return verdict;
  }
  if (event === "PreToolUse") {
    const permission = inner.oneOf("permissionDecision", PERMISSION_DECISIONS);
    if (permission !== undefined) {
      verdict.permission = {
        decision: permission as HookPermissionDecision,
        reason: inner.string("permissionDecisionReason") ?? "",
      };
    }
    const updatedInput = inner.record("updatedInput");
    if (updatedInput !== undefined) verdict.updatedInput = updatedInput;
  }
  if (event === "PermissionRequest") {
    // Claude Code's `decision: {behavior: "allow" | "deny", message}` in the person's place.
    const decision = inner.record("decision");
    if (decision !== undefined) {
      const answer = new FieldReader(
        decision,
        hook,
        verdict.userMessages,
        "hookSpecificOutput.decision.",
      );
      const behavior = answer.oneOf("behavior", ["allow", "deny"]);
      if (behavior !== undefined) {
        verdict.permission = { decision: behavior, reason: answer.string("message") ?? "" };
      }
      if (behavior === "allow") {
        const updatedInput = answer.record("updatedInput");
        if (updatedInput !== undefined) verdict.updatedInput = updatedInput;
        const updates = permissionUpdates(
          decision["updatedPermissions"],
          hook,
          verdict.userMessages,
        );
        if (updates.length > 0) verdict.updatedPermissions = updates;
      }
      if (behavior === "deny" && answer.boolean("interrupt") === true) verdict.interrupt = true;
    }
  }
  if (CONTEXT_EVENTS.has(event)) {
    const context = inner.string("additionalContext");
    if (context !== undefined && context !== "") verdict.additionalContext.push(context);
  }
  return verdict;
}

/**
 * The permission updates rein applies of a hook's `updatedPermissions`, each other entry (a
 * shape rein does not apply: `replaceRules`, `addDirectories`…, or a malformed one) named in
 * `messages` and skipped. Pure.
 */
export function permissionUpdates(
  value: unknown,
  hook: string,
  messages: string[],
): PermissionUpdate[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    messages.push(`${hook} wrote updatedPermissions that is not an array, ignored`);
    return [];
  }
  const updates: PermissionUpdate[] = [];
  for (const entry of value) {
    const update = permissionUpdate(entry);
    if (update !== undefined) updates.push(update);
    else {
      messages.push(
        `${hook} wrote an updatedPermissions entry rein does not apply, ignored: ` +
          JSON.stringify(entry),
      );
    }
  }
  return updates;
}

function permissionUpdate(entry: unknown): PermissionUpdate | undefined {
  if (!isRecord(entry)) return undefined;
  const destination = typeof entry.destination === "string" ? entry.destination : "session";
  if (entry.type === "setMode") {
    return typeof entry.mode === "string"
      ? { type: "setMode", mode: entry.mode, destination }
      : undefined;
  }
  if (entry.type !== "addRules" || !Array.isArray(entry.rules)) return undefined;
  const behavior = entry.behavior ?? "allow";
  if (behavior !== "allow" && behavior !== "deny" && behavior !== "ask") return undefined;
  const rules: string[] = [];
  for (const rule of entry.rules) {
    if (!isRecord(rule) || typeof rule.toolName !== "string" || rule.toolName === "") {
      return undefined;
    }
    const content = rule.ruleContent;
    if (content !== undefined && content !== null && typeof content !== "string") return undefined;
    rules.push(typeof content === "string" ? `${rule.toolName}(${content})` : rule.toolName);
  }
  return { type: "addRules", rules, behavior, destination };
}

/** Reads typed fields of a hook's JSON output, reporting each one of the wrong type. */
class FieldReader {
  constructor(
    private readonly output: Record<string, unknown>,
    private readonly hook: string,
    private readonly messages: string[],
    private readonly prefix = "",
  ) {}

  boolean(key: string): boolean | undefined {
    return this.#read(key, "a boolean", (value) => typeof value === "boolean") as
      | boolean
      | undefined;
  }

  string(key: string): string | undefined {
    return this.#read(key, "a string", (value) => typeof value === "string") as
      | string
      | undefined;
  }

  record(key: string): Record<string, unknown> | undefined {
    return this.#read(key, "an object", isRecord) as Record<string, unknown> | undefined;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const expected = allowed.map((value) => `"${value}"`).join(" or ");
    return this.#read(key, expected, (value) => allowed.includes(value as T)) as T | undefined;
  }

  #read(key: string, expected: string, isValid: (value: unknown) => boolean): unknown {
    const value = this.output[key];
    if (value === undefined || value === null) return undefined;
    if (isValid(value)) return value;
    this.messages.push(
      `${this.hook} wrote ${this.prefix}${key} = ${JSON.stringify(value)}, ignored: ` +
        `expected ${expected}`,
    );
    return undefined;
  }
}

function joinReasons(reasons: readonly string[]): string {
  return reasons.filter((reason) => reason !== "").join("\n");
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function shorten(command: string): string {
  const line = command.trim().split("\n")[0] ?? "";
  return line.length > 80 || command.trim().includes("\n") ? `${line.slice(0, 79)}…` : line;
}
